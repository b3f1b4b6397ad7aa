"""The official Python MCP SDK client (test-only) talks to ``molforma --mcp`` in both eras."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

mcp = pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters  # noqa: E402
from mcp_types import ElicitResult  # noqa: E402

from tests.mcp.conftest import WATER  # noqa: E402


def _params(env: dict[str, str]) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "molforma", "--mcp"], env=env)


async def _session(
    env: dict[str, str],
    mode: str,
    target: Path,
    answers: list[str],
    saves: list[dict[str, Any]] | None = None,
    elicit: bool = True,
) -> dict[str, Any]:
    asked: list[str] = []

    async def on_elicit(context: Any, params: Any) -> ElicitResult:
        asked.append(params.message)
        action = answers.pop(0)
        content = {"overwrite": True} if action == "accept" else None
        return ElicitResult(action=action, content=content)

    out: dict[str, Any] = {}
    async with Client(
        _params(env), mode=mode, elicitation_callback=on_elicit if elicit else None
    ) as client:
        out["version"] = client.protocol_version
        tools = await client.list_tools()
        out["tools"] = sorted(t.name for t in tools.tools)
        prompts = await client.list_prompts()
        out["prompts"] = [p.name for p in prompts.prompts]
        prompt = await client.get_prompt("build_molecule", {"molecule": "water"})
        out["prompt_text"] = prompt.messages[0].content.text
        res = await client.call_tool("list_documents", {})
        doc = res.structured_content["documents"][0]
        added = await client.call_tool(
            "add_atoms",
            {
                "documentId": doc["documentId"],
                "expectedRevision": doc["revision"],
                "atoms": WATER,
                "preview": False,
            },
        )
        out["added"] = added.structured_content
        bad = await client.call_tool(
            "delete_atoms",
            {"documentId": doc["documentId"], "expectedRevision": "r0", "atomIds": ["a1"]},
        )
        out["bad"] = (bad.is_error, bad.structured_content)
        templates = await client.list_resource_templates()
        out["templates"] = [t.uri_template for t in templates.resource_templates]
        state = await client.read_resource("molforma://app/state")
        out["state"] = json.loads(state.contents[0].text)
        xyz = await client.read_resource(f"molforma://documents/{doc['documentId']}/xyz")
        out["xyz"] = xyz.contents[0].text
        saved, contents = [], []
        for extra in saves if saves is not None else [{}, {}]:
            r = await client.call_tool(
                "save_file", {"documentId": doc["documentId"], "path": str(target), **extra}
            )
            saved.append((r.is_error, r.structured_content))
            contents.append(target.read_text())
        out["saved"] = saved
        out["contents"] = contents
    out["asked"] = asked
    return out


def _run(
    env: dict[str, str], mode: str, target: Path, answers: list[str], **kw: Any
) -> dict[str, Any]:
    return asyncio.run(asyncio.wait_for(_session(env, mode, target, answers, **kw), 120))


@pytest.mark.slow
def test_sdk_client_modern_era_lists_calls_reads_and_answers_the_elicitation(
    mcp_env, tmp_path: Path
):
    target = tmp_path / "sdk.molforma.json"
    target.write_text("old\n")
    out = _run(mcp_env, "auto", target, ["decline", "accept"])
    assert out["version"] == "2026-07-28"
    assert len(out["tools"]) == 27 and "calculation" in out["tools"]
    assert "geometry_optimization" in out["prompts"]
    assert "water" in out["prompt_text"]
    assert out["added"]["project"]["formula"] == "H2O"
    assert out["bad"][0] is True and out["bad"][1]["code"] == "stale_revision"
    assert "molforma://documents/{documentId}/xyz" in out["templates"]
    assert out["state"]["mode"] == "headless"
    assert out["xyz"].split()[0] == "3"
    # The SDK answered the form: first a decline (isError, file kept), then an accept.
    assert len(out["asked"]) == 2 and str(target) in out["asked"][0]
    assert out["saved"][0][0] is True and out["saved"][0][1]["code"] == "overwrite_declined"
    assert out["saved"][1][0] is False and out["saved"][1][1]["overwritten"] is True
    assert json.loads(target.read_text())["format"] == "molforma-project"


@pytest.mark.slow
def test_sdk_client_legacy_era_lists_calls_reads_and_is_asked_through_elicitation_create(
    mcp_env, tmp_path: Path
):
    target = tmp_path / "sdk.molforma.json"
    target.write_text("old\n")
    out = _run(
        mcp_env, "legacy", target, ["decline", "accept"], saves=[{}, {"overwrite": True}, {}]
    )
    assert out["version"] == "2025-11-25"
    assert len(out["tools"]) == 27
    assert out["added"]["project"]["formula"] == "H2O"
    assert out["bad"][0] is True
    assert out["state"]["documents"]
    # The client declared elicitation in initialize: the server asked it (elicitation/create).
    assert len(out["asked"]) == 2 and str(target) in out["asked"][0]
    # Decline: an error result, the file kept.
    assert out["saved"][0][0] is True and out["saved"][0][1]["code"] == "overwrite_declined"
    assert out["contents"][0] == "old\n"
    # overwrite: true right after the person's decline (document unchanged) is refused.
    assert out["saved"][1][0] is True and out["saved"][1][1]["code"] == "overwrite_declined"
    assert out["contents"][1] == "old\n"
    # Asked again, the person accepts: the file is replaced.
    assert out["saved"][2][0] is False and out["saved"][2][1]["overwritten"] is True
    assert json.loads(target.read_text())["format"] == "molforma-project"


@pytest.mark.slow
def test_sdk_client_legacy_era_without_elicitation_needs_overwrite(mcp_env, tmp_path: Path):
    target = tmp_path / "sdk.molforma.json"
    target.write_text("old\n")
    out = _run(mcp_env, "legacy", target, [], elicit=False)
    assert out["version"] == "2025-11-25"
    # No elicitation declared: nothing is asked and an existing file needs overwrite: true.
    assert out["asked"] == []
    assert all(err and sc["code"] == "file_exists" for err, sc in out["saved"])
    assert target.read_text() == "old\n"


async def _window_tools(env: dict[str, str], mode: str) -> tuple[str, list[str], bool]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "molforma", "--mcp-gui"],
        env={**env, "QT_QPA_PLATFORM": "offscreen", "MOLFORMA_RENDERER": "painter"},
    )
    async with Client(params, mode=mode) as client:
        tools = await client.list_tools()
        shot = await client.call_tool("capture_screenshot", {"target": "mainTabs"})
        has_image = any(getattr(c, "type", "") == "image" for c in shot.content)
        return client.protocol_version, sorted(t.name for t in tools.tools), has_image


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_sdk_client_sees_the_40_window_tools_in_both_eras(mcp_env, mode: str):
    version, names, has_image = asyncio.run(asyncio.wait_for(_window_tools(mcp_env, mode), 120))
    assert version == ("2026-07-28" if mode == "auto" else "2025-11-25")
    assert len(names) == 40
    assert {"get_ui", "ui_activate", "capture_screenshot", "view", "chemistry"} <= set(names)
    assert has_image
