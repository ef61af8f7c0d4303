"""The typed contract of the answers (docs/api.md): what the OpenAPI document describes.

The routes build their answers as they always did; these models only describe them (each
route names its models in ``responses``), and tests/e2e/test_contract.py checks real answers
against them, so the document cannot drift from what the API sends.
"""
