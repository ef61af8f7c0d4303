"""Pure rule functions that more than one service applies (no I/O, no clock)."""
