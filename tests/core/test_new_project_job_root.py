"""A new project's job root under --mcp-allow-dir (the window's File > New and the headless
start document share :func:`molforma.app.files.default_job_root`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from molforma.app.actor import Actor
from molforma.app.files import default_job_root, new_project
from molforma.app.policy import Policy
from molforma.document.document import Document
from molforma.preferences import Preferences


@dataclass
class _App:
    document: Document
    preferences: Preferences
    policy: Policy | None

    def set_document(self, document: Document) -> None:
        self.document = document


def test_file_new_under_allowed_dirs_puts_the_job_root_inside_the_first(tmp_path: Path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    app = _App(Document(), Preferences(), Policy(allow_dirs=(first, second)))
    new_project(app, actor=Actor.PERSON)
    assert app.document.project["execution"]["job_root"] == str(first.resolve() / "molforma-jobs")


def test_a_saved_job_root_inside_the_allowed_dirs_is_kept(tmp_path: Path):
    inside = tmp_path / "a" / "my-jobs"
    (tmp_path / "a").mkdir()
    policy = Policy(allow_dirs=(tmp_path / "a",))
    assert default_job_root(str(inside), policy) == str(inside)
    assert default_job_root(str(tmp_path / "elsewhere"), policy) == str(
        (tmp_path / "a").resolve() / "molforma-jobs"
    )


def test_without_allowed_dirs_the_default_stays(tmp_path: Path):
    app = _App(Document(), Preferences(), None)
    new_project(app, actor=Actor.PERSON)
    assert app.document.project["execution"]["job_root"] == "~/molforma-jobs"
    assert default_job_root(None, Policy()) is None
