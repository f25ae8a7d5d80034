"""Fixtures: the app in-process over a real SQLite file in a temporary directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from local import local_client
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale.server.app import create_app


@pytest.fixture
def app(tmp_path: Path) -> Starlette:
    # The page's 2 s to find a chosen deal is for a player waiting on an idle machine; on a
    # loaded test machine the same search gets longer, so that a test does not hinge on load.
    return create_app(str(tmp_path / "games.db"), effort="quick", search_seconds=60.0)


@pytest.fixture
def client(app: Starlette) -> Iterator[TestClient]:
    with local_client(app) as c:
        yield c
