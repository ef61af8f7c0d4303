"""Fault injection: play combats under load through the public API while things fail, then
read the combat logs and count what was lost, applied twice, or never fired (issue 7)."""
