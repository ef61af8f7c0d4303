"""End-to-end tests: the four real processes driven over HTTP and SSE (docs/CONTRIBUTING.md
"Tests")."""
