"""Narration: one sentence per public event, in Spanish or English (docs/events.md).

:mod:`shared.narration.words` holds the vocabulary every narrator uses (phrases in both
languages, counted nouns, lists of names, numbers, times, rule citations);
:mod:`shared.narration.common` narrates the platform's events; each ruleset narrates its own in
``shared/rulesets/<ruleset>/narration*.py`` and registers them in its ``definition.py``;
:func:`shared.narration.narrate.narrate` picks the narrator of an event and renders it.
Everything here is pure: names, language and time zone arrive as arguments.
"""
