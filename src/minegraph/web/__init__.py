"""The web app: a FastAPI app with the JSON API and a static page (``minegraph serve``).

Nothing else in the package imports this one (``import minegraph`` loads no FastAPI); it uses
the library's public layers: :mod:`minegraph.analysis`, :mod:`minegraph.explain`,
:mod:`minegraph.formats` and :mod:`minegraph.play`. See docs/web.md for the endpoints and
limits.

Examples
--------
>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app())
>>> client.post("/api/analyze", json={"board": "#1#", "mines": 1}).json()["solutions"]
'2'
"""

from minegraph.web.app import create_app
from minegraph.web.limits import Limits
from minegraph.web.store import GameStore

__all__ = ["create_app", "Limits", "GameStore"]
