"""The chaos suite reads issue 18's stalled-combat metric from services/turns' page."""

from __future__ import annotations

from tests.chaos.stalls import stall_samples

PAGE = """\
# HELP referee_stalled_combats Combats the last reconciliation found stalled
# TYPE referee_stalled_combats gauge
referee_stalled_combats{service="turns"} 2.0
# HELP referee_stalled_combats_detected_total Combats found stalled
# TYPE referee_stalled_combats_detected_total counter
referee_stalled_combats_detected_total{reason="no_clock",service="turns"} 3.0
referee_stalled_combats_detected_total{reason="resolution_overdue",service="turns"} 1.0
referee_stalled_combats_detected_total{reason="no_clock",service="resolution"} 7.0
"""


def test_the_gauge_and_every_reason_of_turns_are_read() -> None:
    assert stall_samples(PAGE) == (2.0, 4.0)


def test_a_page_without_stalls_reads_zero() -> None:
    assert stall_samples("# nothing here\n") == (0.0, 0.0)
