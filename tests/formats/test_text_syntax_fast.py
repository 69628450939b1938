"""The fast reader of plain board texts (``_plain_grid``) gives exactly the full reader's answer
(``_parse_rows``) on every text it accepts, and accepts nothing the full reader refuses."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from minegraph.errors import MinegraphError
from minegraph.formats.text_syntax import _parse_rows, _plain_grid
from strategies import examples, positions

#: Edits that make a text unusual: each is either still valid or an error to be named.
EDITS = st.sampled_from(["none", "space", "comment", "blank", "crlf", "digit", "header-twice",
                         "zeros", "topology", "big-mines", "short-row", "tab", "letters"])


def edit(text: str, how: str, where: int) -> str:
    lines = text.split("\n")
    k = where % max(1, len(lines) - 1)
    if how == "space":
        lines[k] = " " + lines[k]
    elif how == "comment":
        lines.insert(k, "; a comment")
    elif how == "blank":
        lines.insert(k, "")
    elif how == "crlf":
        return text.replace("\n", "\r\n")
    elif how == "digit":
        lines[k] = lines[k][:1] + "9" + lines[k][2:] if lines[k] else "9"
    elif how == "header-twice":
        lines.insert(0, "mines: 3")
        lines.insert(0, "mines: 3")
    elif how == "zeros":
        lines.insert(0, "mines: 007")
    elif how == "topology":
        lines.insert(0, "topology: hex")
    elif how == "big-mines":
        lines.insert(0, "mines: 999999999")
    elif how == "short-row":
        lines[k] = lines[k][:-1]
    elif how == "tab":
        lines[k] = lines[k] + "\t"
    elif how == "letters":
        lines[k] = lines[k].replace("#", "x")
    return "\n".join(lines)


@settings(max_examples=examples(1000), deadline=None)
@given(positions(), EDITS, st.integers(0, 100))
def test_the_fast_reader_agrees_with_the_full_reader(board: object, how: str, where: int) -> None:
    text = edit(board.to_text(), how, where)  # type: ignore[attr-defined]
    try:
        full = _parse_rows(text.replace("\r\n", "\n"), None)
    except MinegraphError:
        full = None
    fast = _plain_grid(text.replace("\r\n", "\n"))
    if fast is not None:
        assert fast == full
