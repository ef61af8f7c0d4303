"""Webhooks (docs/api.md "Events", docs/webhooks.md): endpoints a community registers,
deliveries signed with Standard Webhooks, retried with backoff for a day from a schedule in
Redis that every gateway process works on."""
