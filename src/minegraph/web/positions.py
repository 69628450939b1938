"""The questions on a position and the puzzles to print: ``/api/analyze``, ``/api/explain``,
``/api/structure``, ``/api/generate``.

Each is a request body (pydantic) and a module-level work function ``work(body, limits,
deadline)`` returning the answer as plain data, run by the app's
:class:`~minegraph.web.runner.Runner` in a thread or a process of its lanes.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Literal, cast

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from minegraph.board import Board, Cell
from minegraph.deadline import Deadline
from minegraph.errors import BoardError, LimitError, UserError
from minegraph.formats import read_board
from minegraph.present import shown
from minegraph.web.cost import Cost, cost_key
from minegraph.web.limits import Limits

__all__ = ["router", "AnalyzeRequest", "ExplainRequest", "StructureRequest", "GenerateRequest",
           "seconds_for"]

router = APIRouter()


# --------------------------------------------------------------------------- request bodies
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class AnalyzeRequest(_Body):
    """The body of ``POST /api/analyze``.

    Parameters
    ----------
    board : str
        The board in any format :func:`~minegraph.formats.read_board` reads.
    format : str, optional
        Its format (default: detected).
    dialect : str, optional
        The board text's dialect.
    mines : int, optional
        The total mine count.
    timeout : float, optional
        The time limit in seconds (at most the server's).
    """

    board: str = Field(description="the position as text, in any supported format (docs/formats.md)")
    format: str | None = Field(None, description="the format's name; detected when omitted")
    dialect: str | None = Field(None, description="text and JSON formats: standard, ascii or dots")
    mines: int | None = Field(None, ge=0, description="the total mine count (overrides the board's)")
    timeout: float | None = Field(None, gt=0, description="seconds, at most the server's limit")


class ExplainRequest(AnalyzeRequest):
    """The body of ``POST /api/explain``.

    Parameters
    ----------
    board : str
        The board in any format :func:`~minegraph.formats.read_board` reads.
    format : str, optional
        Its format (default: detected).
    dialect : str, optional
        The board text's dialect.
    mines : int, optional
        The total mine count.
    timeout : float, optional
        The time limit in seconds (at most the server's).
    cell : list of int or int or str, optional
        ``[row, col]`` on grids, an index or a node label on graph boards; omitted: why the
        board is inconsistent.
    smallest : bool
        Search for a smallest set of reasons after the first minimal one.
    """

    cell: list[int] | int | str | None = Field(
        None, description="[row, col] on grids, an index on graph boards, a node label on "
                          "labelled boards; omitted: why the board is inconsistent")
    smallest: bool = Field(True, description="search for a smallest set of reasons after the "
                                             "first minimal one; false: the quick answer")


class StructureRequest(AnalyzeRequest):
    """The body of ``POST /api/structure``.

    Parameters
    ----------
    board : str
        The board in any format :func:`~minegraph.formats.read_board` reads.
    format : str, optional
        Its format (default: detected).
    dialect : str, optional
        The board text's dialect.
    mines : int, optional
        The total mine count.
    timeout : float, optional
        The time limit in seconds (at most the server's).
    propagate : bool
        First take out the cells trivial propagation decides.
    """

    propagate: bool = Field(False, description="first take out the cells trivial propagation "
                                               "decides")


class GenerateRequest(_Body):
    """The body of ``POST /api/generate``.

    Parameters
    ----------
    kind : str
        ``paper``, ``unique`` or ``noguess``.
    rows, cols : int
        The grid's size.
    mines : int, optional
        The mines.
    theorem : int
        The paper's theorem (1, 2 or 3) for ``paper``.
    topology : str
        The grid's topology.
    rules : str
        ``classic`` or ``modern`` first click.
    seed : int
        The random seed.
    """

    kind: Literal["paper", "unique", "noguess"] = Field(
        description="paper: a certified table of German & Lakshtanov; unique: one solution "
                    "and a minimal set of numbers; noguess: a position solvable without a guess")
    rows: int = Field(ge=1, le=1000)
    cols: int = Field(ge=1, le=1000)
    mines: int | None = Field(None, ge=0, description="unique and noguess")
    theorem: Literal[1, 2, 3] = Field(1, description="paper: the theorem (3: triangle grid)")
    topology: Literal["square", "triangle", "hex", "torus"] = "square"
    rules: Literal["classic", "modern"] = Field("modern", description="noguess")
    seed: int = Field(0, ge=0, lt=2 ** 63)



# --------------------------------------------------------------------------- the work
def _read(body: AnalyzeRequest, limits: Limits) -> Board:
    """The board of a request, within the size limit, with its total mine count."""
    board = read_board(body.board, body.format, dialect=body.dialect)
    if board.size > limits.max_cells:
        raise LimitError(f"a board of {board.size} cells exceeds the limit of {limits.max_cells} "
                         f"cells (GET /api/limits)")
    if body.mines is not None:
        board = board.with_states(board.states, body.mines)
    return board


def _cell(value: list[int] | int | str | None, board: Board) -> Cell | None:
    """The cell a request names, checked against ``board``."""
    if value is None:
        return None
    if isinstance(value, list) and len(value) != 2:
        raise BoardError(f"cell {shown(value)}: expected [row, col] (0-based) or a cell number")
    # The board's own reading (labels included); a BoardError outside it.
    return board.cell(board.index(cast(Any, value)))


def _analyze(body: AnalyzeRequest, limits: Limits, deadline: Deadline,
             board: Board | None = None) -> dict[str, Any]:
    from minegraph.analysis import analyze
    board = _read(body, limits) if board is None else board
    return analyze(board, timeout=deadline).to_json()


def _explain(body: ExplainRequest, limits: Limits, deadline: Deadline,
             board: Board | None = None) -> dict[str, Any]:
    from minegraph.explain import explain
    board = _read(body, limits) if board is None else board
    return explain(board, _cell(body.cell, board), timeout=deadline,
                   smallest=body.smallest).to_json()


def _structure(body: StructureRequest, limits: Limits, deadline: Deadline,
               board: Board | None = None) -> dict[str, Any]:
    """The thesis's decomposition pipeline on the board: its classification, verdict, summary
    and picture (:mod:`minegraph.decompose`)."""
    from minegraph.deadline import time_limit
    from minegraph.decompose import classify
    from minegraph.decompose.picture import decomposition_svg, verdict
    board = _read(body, limits) if board is None else board
    with time_limit(deadline, "structure"):
        found = classify(board, propagate=body.propagate)
        picture = decomposition_svg(found)
    return {**found.to_json(), "verdict": verdict(found), "summary": found.summary(),
            "svg": picture}


def _generate(body: GenerateRequest, limits: Limits, deadline: Deadline) -> dict[str, Any]:
    """A puzzle of ``body.kind`` and its answer key, as board text and printable SVG."""
    from minegraph.deadline import time_limit
    from minegraph.generate.paper import completed
    from minegraph.generate.sheet import puzzle_svg, solution_svg
    if body.rows * body.cols > limits.max_cells:
        raise LimitError(f"a puzzle of {body.rows}x{body.cols} cells exceeds the limit of "
                         f"{limits.max_cells} cells (GET /api/limits)")
    if body.kind != "paper" and body.mines is None:
        raise UserError(f"a {body.kind} puzzle needs \"mines\"")
    with time_limit(deadline, "puzzle"):
        if body.kind == "paper":
            from minegraph.generate.paper import paper_table
            table = paper_table(body.theorem, body.rows, body.cols, seed=body.seed)
            puzzle, layout = table.puzzle, table.layout
            caption = (f"Theorem {body.theorem} table, {body.rows}x{body.cols}, seed "
                       f"{body.seed}: one solution, certified by rank")
        elif body.kind == "unique":
            from minegraph.generate.unique import unique_puzzle
            assert body.mines is not None
            made = unique_puzzle(body.rows, body.cols, body.mines, seed=body.seed,
                                 topology=body.topology)
            puzzle, layout = made.puzzle, made.layout
            caption = (f"{body.rows}x{body.cols}, {body.mines} mines, seed {body.seed}: one "
                       f"solution, no number can be left out")
        else:
            from minegraph.generate.noguess import noguess_board
            assert body.mines is not None
            first = (body.rows // 2, body.cols // 2)
            board = noguess_board(body.rows, body.cols, body.mines, first=first,
                                  rules=body.rules, seed=body.seed, topology=body.topology)
            puzzle, layout = board.start, board.layout
            caption = (f"{body.rows}x{body.cols}, {body.mines} mines, seed {body.seed}: "
                       f"solvable from here without a guess")
    answer = completed(puzzle, layout)
    return {"kind": body.kind, "caption": caption, "puzzle": puzzle.to_text(),
            "answer": answer.to_text(), "puzzle_svg": puzzle_svg(puzzle, caption=caption),
            "answer_svg": solution_svg(puzzle, layout, caption="answer key: " + caption)}


def seconds_for(asked: float | None, most: float) -> float:
    """The time a request gets: what it asked for, at most the server's limit.

    Raises
    ------
    LimitError
        when it asks for more than the limit.

    Parameters
    ----------
    asked : float or None
        The request's limit, if any.
    most : float
        The server's limit.

    Returns
    -------
    float
        The seconds.
    """
    if asked is None:
        return most
    if asked > most:
        raise LimitError(f"a timeout of {asked:g} s exceeds the limit of {most:g} s (GET /api/limits)")
    return asked



#: The questions on a position, by name: the request body's class and the work done (the
#: board is read after the work's imports: under a big-lane job's memory bound the imports are
#: what runs out first, and fail cleanly).
_POSITION_WORK: dict[str, Callable[..., dict[str, Any]]] = {
    "analyze": _analyze, "explain": _explain, "structure": _structure}

_POSITION_MODELS: dict[str, type[AnalyzeRequest]] = {
    "analyze": AnalyzeRequest, "explain": ExplainRequest, "structure": StructureRequest}


def _position_job(kind: str, body: dict[str, Any], limits: Limits,
                  deadline: Deadline) -> dict[str, Any]:
    """A question on a position from its plain request body (what crosses to a process)."""
    request = _POSITION_MODELS[kind].model_validate(body)
    return _POSITION_WORK[kind](request, limits, deadline)


def _position_small(kind: str, body: dict[str, Any], limits: Limits, deadline: Deadline, *,
                    estimate: Callable[..., Cost]) -> dict[str, Any]:
    """:func:`_position_job` in the small lane: the position's cost is estimated first
    (``estimate``: the runner's, :func:`minegraph.web.cost.estimate`), and one past
    :attr:`Limits.small_component_cells` or :attr:`Limits.small_work` raises
    :class:`~minegraph.web.runner.Outgrown` (the big lane runs it) before any work starts."""
    from minegraph.web.runner import Outgrown
    request = _POSITION_MODELS[kind].model_validate(body)
    board = _read(request, limits)
    cost = estimate(board, most_cells=limits.small_component_cells, most_work=limits.small_work)
    if not cost.small:
        raise Outgrown(f"largest component {cost.largest} cells, estimated work {cost.work:g}")
    return _POSITION_WORK[kind](request, limits, deadline, board)


def _generate_job(body: dict[str, Any], limits: Limits, deadline: Deadline) -> dict[str, Any]:
    return _generate(GenerateRequest.model_validate(body), limits, deadline)


async def _position_answer(kind: str, body: AnalyzeRequest, request: Request,
                           most: float) -> JSONResponse:
    limits: Limits = request.app.state.limits
    runner = request.app.state.runner
    seconds = seconds_for(body.timeout, most)
    # What a time-out names: the structure's is its decomposition (it said "consistency").
    question = {"explain": "explain", "structure": "structure"}.get(kind, "consistency")
    heavy = len(body.board) > limits.big_request_bytes
    position = None if heavy else cost_key(body.board, body.format, body.dialect, body.mines)
    async with runner.request(request, seconds, question) as deadline:
        answer = await runner.run(_position_job, (kind, body.model_dump(), limits), deadline,
                                  heavy=heavy, position=position,
                                  small=partial(_position_small, estimate=runner.estimate))
    return JSONResponse(answer)


@router.post("/api/analyze", summary="Analyse a position (the object of minegraph analyze --json)")
async def post_analyze(body: AnalyzeRequest, request: Request) -> JSONResponse:
    return await _position_answer("analyze", body, request,
                                  request.app.state.limits.analyze_seconds)


@router.post("/api/explain", summary="Why a cell is certainly safe or a mine "
                                     "(the object of minegraph explain --json)")
async def post_explain(body: ExplainRequest, request: Request) -> JSONResponse:
    return await _position_answer("explain", body, request,
                                  request.app.state.limits.explain_seconds)


@router.post("/api/structure", summary="The thesis's decomposition and classification of a "
                                       "position, with its picture (SVG)")
async def post_structure(body: StructureRequest, request: Request) -> JSONResponse:
    return await _position_answer("structure", body, request,
                                  request.app.state.limits.analyze_seconds)


@router.post("/api/generate", summary="A puzzle to print and its answer key (text and SVG)")
async def post_generate(body: GenerateRequest, request: Request) -> JSONResponse:
    limits: Limits = request.app.state.limits
    runner = request.app.state.runner
    if body.rows * body.cols > limits.max_cells:
        raise LimitError(f"a puzzle of {body.rows}x{body.cols} cells exceeds the limit of "
                         f"{limits.max_cells} cells (GET /api/limits)")
    # A unique or no-guess puzzle searches: past small_puzzle_cells its cost is unbounded in
    # practice (a unique Expert puzzle takes seconds), so it does not start in the small lane.
    most = limits.small_cells if body.kind == "paper" else limits.small_puzzle_cells
    heavy = body.rows * body.cols > most
    async with runner.request(request, limits.analyze_seconds, "puzzle") as deadline:
        answer = await runner.run(_generate_job, (body.model_dump(), limits), deadline,
                                  heavy=heavy)
    return JSONResponse(answer)
