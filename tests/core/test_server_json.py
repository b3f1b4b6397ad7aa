"""server.json, the entry MCP catalogues install MolForma from, agrees with the program.

The MCP Registry's format (schema of 2025-12-11) is checked by the rules written out
below — the fields the registry requires, their patterns and lengths — since its schema
is published on the web and the tests run offline. The version is the package's, the
package is the one pyproject.toml builds, and README carries the ``mcp-name`` marker the
registry reads from PyPI to verify that the package belongs to this server name.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

import jsonschema
import pytest

from molforma import __version__
from tests.paths import REPO

SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
NAME = "io.github.molforma/molforma"

_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "description": {"type": "string"},
        "isRequired": {"type": "boolean"},
        "format": {"enum": ["string", "number", "boolean", "filepath"]},
        "value": {"type": "string"},
        "isSecret": {"type": "boolean"},
        "default": {"type": "string"},
        "placeholder": {"type": "string"},
        "choices": {"type": "array", "items": {"type": "string"}},
    },
}
_ARGUMENT: dict[str, Any] = {
    "anyOf": [
        {
            "allOf": [
                _INPUT,
                {
                    "properties": {
                        "type": {"const": "positional"},
                        "valueHint": {"type": "string"},
                        "isRepeated": {"type": "boolean"},
                    },
                    "required": ["type"],
                    "anyOf": [{"required": ["valueHint"]}, {"required": ["value"]}],
                },
            ]
        },
        {
            "allOf": [
                _INPUT,
                {
                    "properties": {
                        "type": {"const": "named"},
                        "name": {"type": "string"},
                        "isRepeated": {"type": "boolean"},
                    },
                    "required": ["type", "name"],
                },
            ]
        },
    ]
}
_VERSION = {
    "type": "string",
    "minLength": 1,
    "maxLength": 255,
    # A registry rejects ranges and "latest": one exact version.
    "not": {"anyOf": [{"const": "latest"}, {"pattern": r"^[\^~<>=]|[*x]$|\.x\.|\.\*"}]},
}
# The rules of the registry's server.json (2025-12-11) this file depends on.
REGISTRY_RULES: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "required": ["name", "description", "version"],
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "name": {
            "type": "string",
            "minLength": 3,
            "maxLength": 200,
            "pattern": r"^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$",
        },
        "title": {"type": "string", "minLength": 1, "maxLength": 100},
        "description": {"type": "string", "minLength": 1, "maxLength": 100},
        "version": _VERSION,
        "websiteUrl": {"type": "string", "format": "uri"},
        "repository": {
            "type": "object",
            "required": ["url", "source"],
            "properties": {
                "url": {"type": "string", "format": "uri"},
                "source": {"type": "string"},
            },
        },
        "packages": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["registryType", "identifier", "transport"],
                "properties": {
                    "registryType": {"enum": ["npm", "pypi", "nuget", "oci", "mcpb"]},
                    "registryBaseUrl": {"type": "string", "format": "uri"},
                    "identifier": {"type": "string", "minLength": 1},
                    "version": _VERSION,
                    "runtimeHint": {"type": "string"},
                    "transport": {
                        "type": "object",
                        "required": ["type"],
                        "properties": {"type": {"enum": ["stdio", "streamable-http", "sse"]}},
                    },
                    "packageArguments": {"type": "array", "items": _ARGUMENT},
                    "runtimeArguments": {"type": "array", "items": _ARGUMENT},
                    "environmentVariables": {
                        "type": "array",
                        "items": {
                            "allOf": [
                                _INPUT,
                                {"required": ["name"], "properties": {"name": {"type": "string"}}},
                            ]
                        },
                    },
                },
            },
        },
    },
}


@pytest.fixture(scope="module")
def entry() -> dict[str, Any]:
    return json.loads((REPO / "server.json").read_text(encoding="utf-8"))


def test_server_json_follows_the_registry_format(entry: dict[str, Any]) -> None:
    assert entry["$schema"] == SCHEMA_URL
    validator = jsonschema.Draft7Validator(
        REGISTRY_RULES, format_checker=jsonschema.FormatChecker()
    )
    assert [e.message for e in validator.iter_errors(entry)] == []


def test_the_rules_refuse_what_the_registry_refuses(entry: dict[str, Any]) -> None:
    validator = jsonschema.Draft7Validator(REGISTRY_RULES)
    bad = [
        {**entry, "name": "molforma"},  # no namespace
        {**entry, "description": "x" * 101},
        {k: v for k, v in entry.items() if k != "version"},
        {**entry, "packages": [{**entry["packages"][0], "version": "latest"}]},
        {**entry, "packages": [{**entry["packages"][0], "version": ">=0.1"}]},
        {
            **entry,
            "packages": [{k: v for k, v in entry["packages"][0].items() if k != "transport"}],
        },
        {
            **entry,
            "packages": [{**entry["packages"][0], "packageArguments": [{"type": "positional"}]}],
        },
    ]
    assert [validator.is_valid(b) for b in bad] == [False] * len(bad)


def test_the_entry_installs_this_package_at_this_version_and_starts_the_mcp_server(
    entry: dict[str, Any],
) -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert entry["name"] == NAME
    assert entry["version"] == __version__
    (package,) = entry["packages"]
    assert package["registryType"] == "pypi"
    assert package["identifier"] == project["name"] == "molforma"
    assert package["version"] == __version__
    # uvx runs the command named like the package: the wheel's console script.
    assert package["runtimeHint"] == "uvx" and "molforma" in project["scripts"]
    assert package["transport"] == {"type": "stdio"}
    assert [a["value"] for a in package["packageArguments"]] == ["--mcp"]
    assert entry["repository"]["url"] == project["urls"]["Source"]


def test_readme_carries_the_registry_marker_and_names_the_home_address() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    # The registry verifies a PyPI package by this line of its description (the README).
    assert re.search(r"^<!-- mcp-name: (\S+) -->$", readme, re.M)[1] == NAME  # type: ignore[index]
    assert "https://github.com/molforma/molforma" in readme


@pytest.mark.parametrize("fmt", ["claude", "codex", "json"])
def test_readme_install_snippets_are_what_mcp_config_prints(fmt: str) -> None:
    from molforma.subcommands.mcp_config import server_args, snippet

    printed = snippet(
        fmt,
        ["/home/me/.local/bin/molforma"],
        server_args(gui=False, allow_dirs=[], allow_execution=False),
        gui=False,
    )
    install = (REPO / "README.md").read_text(encoding="utf-8").split("\n## Install\n", 1)[1]
    assert printed in install.split("\n## ", 1)[0]
