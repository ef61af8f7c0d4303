"""Prometheus metrics of a service replica (served on ``REFEREE_METRICS_PORT`` when set)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

MESSAGES = Counter(
    "referee_messages_total",
    "Messages handled, by outcome: committed, rejected, duplicate, unchanged",
    ["service", "type", "outcome"],
)
HANDLE_SECONDS = Histogram(
    "referee_handle_seconds",
    "From a message's arrival to its commit and outbox flush",
    ["service", "type"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
DELIVERIES = Counter(
    "referee_deliveries_total",
    "Broker messages consumed (a batch of a commit's events is one)",
    ["service"],
)
PUBLISHED = Counter(
    "referee_published_total",
    "Messages published and confirmed, by destination: events (the public exchange), reply "
    "(a gateway's reply queue), or the service whose commands exchange took it",
    ["destination"],
)
CONFLICTS = Counter(
    "referee_commit_conflicts_total", "Commits retried after a version conflict", ["service"]
)
TIMERS_FIRED = Counter("referee_timers_fired_total", "Timers fired", ["service"])
REDELIVERED = Counter(
    "referee_messages_redelivered_total",
    "Messages the broker delivered again (a consumer died or failed before its ack)",
    ["service"],
)
STALLED = Gauge(
    "referee_stalled_combats",
    "Combats the last reconciliation found stalled: not ended, and nothing will move them on",
    ["service"],
)
STALLS_DETECTED = Counter(
    "referee_stalled_combats_detected_total",
    "Combats found stalled (each counted once per stall and reason)",
    ["service", "reason"],
)
OUTBOX_DIRTY = Gauge(
    "referee_outbox_dirty",
    "Outboxes committed but not yet flushed to the broker (the sweeper's backlog)",
    ["service"],
)
TIMER_LATENESS = Gauge(
    "referee_timer_lateness_seconds",
    "How late after its due time the last timer fired by this replica was",
    ["service"],
)
