"""Reviews: ``POST /api/review?name=FILE`` — a replay file's bytes in, the review out.

The body is the replay file itself (``application/octet-stream``; at most the app's
``max_body_bytes``); ``name`` is the file's name, whose extension gives the format (``.avf``,
``.evf``, ``.rmv``, ``.mvf``). The answer is the object of ``minegraph review --json``
(:meth:`~minegraph.play.review.Review.to_json`) with, for every click and chord, ``board``:
the position before it as board text with the total, ready for ``/api/analyze`` and
``/api/explain``, and the coach's fields (docs/review.md): ``label``, ``win_probability``,
``win_probability_best``, ``win_probability_lost``, ``win_probability_exact``, ``best_cell``
and the ``alternatives`` (mine probability, progress, win chance). By default the page gets
the verdicts the exact endgame can give (``samples=0``: cheap, within a request's time);
``samples`` up to :data:`MAX_WEB_SAMPLES` also plays out the larger positions. The work
(ms_toollib in a child process, then one analysis per click, then the coach) runs in the lanes
like every analysis.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from minegraph.deadline import Deadline
from minegraph.errors import FormatError
from minegraph.web.limits import Limits

__all__ = ["router", "review_job", "MAX_WEB_SAMPLES"]

router = APIRouter()

#: The most layouts a web request may have played out per guess.
MAX_WEB_SAMPLES = 64


def review_job(data: bytes, name: str, samples: int, deadline: Deadline) -> dict[str, Any]:
    """The review of ``data`` as JSON data, each click with its position (the lanes' work).

    Parameters
    ----------
    data
        The replay file's bytes.
    name
        The file's name (its extension is the format).
    samples
        Layouts played out per guess the exact endgame cannot decide (0: only exact
        verdicts).
    deadline
        The request's deadline (the lanes set it; the analyses check it).

    Returns
    -------
    dict
        :meth:`~minegraph.play.review.Review.to_json` with ``board`` in every click and chord.

    Raises
    ------
    FormatError
        for a name without a replay extension, or a damaged replay.
    """
    import os

    from minegraph.play.coach import coach
    from minegraph.play.review import REPLAY_FORMATS, review_bytes
    fmt = os.path.splitext(name)[1].lower().lstrip(".")
    if fmt not in REPLAY_FORMATS:
        raise FormatError(f"name: expected a replay file name ending in "
                          f"{', '.join('.' + k for k in REPLAY_FORMATS)}")
    r = review_bytes(data, fmt, name=os.path.basename(name)[:80] or f"replay.{fmt}")
    r = coach(r, samples=samples)
    obj = r.to_json()
    for entries, clicks in ((obj["clicks"], r.clicks), (obj["chords"], r.chords)):
        for entry, click in zip(entries, clicks):
            entry["board"] = click.board.to_text()
    return obj


@router.post("/api/review", summary="Review a replay file (.avf, .evf, .rmv, .mvf): the exact "
                                     "probability behind every click",
             openapi_extra={"requestBody": {"content": {"application/octet-stream": {}},
                                            "required": True}})
async def post_review(request: Request,
                      name: str = Query(..., min_length=5, max_length=200,
                                        description="the file's name: its extension gives the "
                                                    "format"),
                      samples: int = Query(0, ge=0, le=MAX_WEB_SAMPLES,
                                           description="layouts played out per guess the exact "
                                                       "endgame cannot decide (0: exact verdicts "
                                                       "only)")) -> JSONResponse:
    limits: Limits = request.app.state.limits
    runner = request.app.state.runner
    data = await request.body()
    if not data:
        raise FormatError("the body must be the replay file's bytes")
    async with runner.request(request, limits.analyze_seconds, "review") as deadline:
        answer = await runner.run(review_job, (data, name, samples), deadline,
                                  heavy=len(data) > limits.big_request_bytes * 50)
    return JSONResponse(answer)
