"""The web app: a FastAPI app with the JSON API and a static page (``minegraph serve``).

Nothing else in the package imports this one (``import minegraph`` loads no FastAPI); it uses
the library's public layers: :mod:`minegraph.analysis`, :mod:`minegraph.explain`,
:mod:`minegraph.formats` and :mod:`minegraph.play`. The app (:mod:`~minegraph.web.app`)
carries requests to the routers of :mod:`~minegraph.web.positions`,
:mod:`~minegraph.web.games` and :mod:`~minegraph.web.reviews`, which run their work in the lanes of :mod:`~minegraph.web.lanes`;
:mod:`~minegraph.web.server` serves it. See docs/web.md for the endpoints and limits.

Examples
--------
>>> app = create_app(Limits(max_games=100))
>>> sorted(app.openapi()["paths"])  # doctest: +NORMALIZE_WHITESPACE
['/api/analyze', '/api/explain', '/api/game', '/api/game/{game_id}', '/api/game/{game_id}/move',
 '/api/game/{game_id}/replay.evf', '/api/game/{game_id}/solver', '/api/game/{game_id}/undo',
 '/api/generate', '/api/limits', '/api/review', '/api/structure']
"""

from minegraph.web.app import create_app
from minegraph.web.limits import Limits
from minegraph.web.store import GameStore

__all__ = ["create_app", "Limits", "GameStore"]
