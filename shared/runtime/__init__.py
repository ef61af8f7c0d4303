"""The platform every service runs on, one module per job.

- ``spec``: what a service plugs in (:class:`ServiceSpec`: handlers, queries, targets, view);
- ``handling``: a message, aggregate by aggregate: load, decide, commit, flush;
- ``commits``: a decision turned into the commit (state, outbox entries, log, read model);
- ``queries``: read-only questions answered straight to the asker;
- ``outgoing``: rejections and replies, sent outside any commit;
- ``firing``: the timer lane (what an armed timer carries, its ``timer.fired`` command);
- ``reconcile``: the reconciler (outboxes flushed, lost timers re-armed);
- ``ports``: the adapters as protocols (Redis/RabbitMQ here, in-memory fakes in tests);
- ``service``: one runtime wiring them together.
"""

from shared.runtime.service import RedisServiceRuntime, ServiceRuntime
from shared.runtime.spec import Handler, Query, QueryContext, ServiceSpec, State, Target

__all__ = [
    "Handler",
    "Query",
    "QueryContext",
    "RedisServiceRuntime",
    "ServiceRuntime",
    "ServiceSpec",
    "State",
    "Target",
]
