"""Reading helpers every reader shares: bytes to text, lines without copying the text, ASCII
whole numbers, and short quotations of user input in messages.

The readers use these instead of ``str.splitlines``, ``str.split`` and ``int`` because those
three build the whole input before any check (a 25 MB file of one-character lines becomes
25 million strings) or accept more than the formats allow (``int`` reads ``1_0`` as 10, ``٣``
as 3 and ``+3`` as 3, and fails on numbers of more than 4,300 digits).

Examples
--------
>>> [(n, line) for n, _, line in content_lines("mines: 1\\n\\n; note\\n#1\\n", comments=";")]
[(1, 'mines: 1'), (4, '#1')]
>>> whole_number("42"), whole_number("1_0"), whole_number("٣"), whole_number("-1", signed=True)
(42, None, None, -1)
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Iterator

from minegraph.errors import FormatError
from minegraph.present import shown

__all__ = ["MAX_DIGITS", "decode", "wide_encoding", "normalise_newlines", "content_lines", "whole_number", "show",
           "count_tokens", "COUNT_UP_TO"]

#: The longest number (in digits, leading zeros not counted) any reader accepts. Every size
#: and count in the formats is far below 10**18, so a longer number is refused before ``int``
#: converts it.
MAX_DIGITS = 18

# The start of a line with a character other than a space or tab; with `;` comment lines
# skipped too. Searched from the start of a line, these skip blank (and comment) lines in C.
_TOKEN = re.compile(r"[^ \t]+")

#: How far :func:`count_tokens` counts before it gives up (a message then says "more than").
COUNT_UP_TO = 10_000

_CONTENT = re.compile(r"^[ \t]*[^ \t\n]", re.MULTILINE)
_CONTENT_NO_COMMENT = re.compile(r"^[ \t]*[^ \t\n;]", re.MULTILINE)


def decode(data: str | bytes | bytearray) -> str:
    """``data`` as text: bytes are decoded as UTF-8; a leading byte-order mark is dropped.

    Raises
    ------
    FormatError
        for bytes that are not UTF-8 (a binary file), naming the line and column of the
        first byte that cannot be decoded, or the encoding at line 1, column 1 when they are
        UTF-16 or UTF-32 text (:func:`wide_encoding`); for anything that is neither text nor
        bytes.

    Parameters
    ----------
    data : str or bytes or bytearray
        The input.

    Returns
    -------
    str
        The text.

    Examples
    --------
    >>> decode(b"\\xef\\xbb\\xbf#1\\n11")
    '#1\\n11'
    >>> decode(None)
    Traceback (most recent call last):
    ...
    minegraph.errors.FormatError: expected the input as text (str) or UTF-8 bytes, got NoneType
    >>> decode(b"1 1\\n\\x89PNG")
    Traceback (most recent call last):
    ...
    minegraph.errors.FormatError: line 2, column 1: not UTF-8 text: byte 0x89 cannot be decoded (a binary file?); expected a text file
    """
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    if not isinstance(data, (bytes, bytearray)):
        raise FormatError(f"expected the input as text (str) or UTF-8 bytes, got {type(data).__name__}")
    raw = bytes(data)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        wide = wide_encoding(raw)
        if wide is not None:
            raise _not_utf8(wide) from None
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        column = len(raw[line_start:exc.start].decode("utf-8", "replace")) + 1
        raise FormatError(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded (a binary "
                          f"file?); expected a text file", line, column) from None
    if "\x00" in text:             # ASCII saved as UTF-16 without a byte-order mark is UTF-8 too
        wide = wide_encoding(raw)
        if wide is not None:
            raise _not_utf8(wide)
    return text.removeprefix("\ufeff")


def wide_encoding(raw: bytes) -> str | None:
    """The encoding of ``raw`` if it is UTF-16 or UTF-32 text, else ``None``: by its
    byte-order mark, or, without one, by the zero bytes that UTF-16 gives ASCII characters
    (in every other byte of the first 200, and none between).

    Parameters
    ----------
    raw : bytes
        The input's bytes.

    Returns
    -------
    str or None
        The encoding's name, or ``None``.

    Examples
    --------
    >>> wide_encoding("#1".encode("utf-16")), wide_encoding("#1".encode("utf-16-be"))
    ('UTF-16 (little-endian, with a byte-order mark)', 'UTF-16 (big-endian)')
    >>> wide_encoding(b"#1\\n11") is None, wide_encoding(b"#\\x00\\x00") is None
    (True, True)
    """
    for mark, name in ((b"\xff\xfe\x00\x00", "UTF-32 (little-endian"),
                       (b"\x00\x00\xfe\xff", "UTF-32 (big-endian"),
                       (b"\xff\xfe", "UTF-16 (little-endian"), (b"\xfe\xff", "UTF-16 (big-endian")):
        if raw.startswith(mark):
            return f"{name}, with a byte-order mark)"
    head = raw[:200]
    head = head[:len(head) - len(head) % 2]
    if len(head) < 4:
        return None
    even, odd = head[0::2], head[1::2]
    for zeros, others, order in ((odd, even, "little"), (even, odd, "big")):
        if zeros.count(0) * 2 >= len(zeros) and others.count(0) == 0:
            return f"UTF-16 ({order}-endian)"
    return None


def _not_utf8(encoding: str) -> FormatError:
    name = encoding.split()[0]
    return FormatError(f"not UTF-8 text: this is {encoding}; save it as UTF-8 (for example "
                       f"iconv -f {name} -t UTF-8, or an editor's Save As with UTF-8)", 1, 1)


def normalise_newlines(text: str) -> str:
    """``text`` with ``\\r\\n`` and lone ``\\r`` line ends turned into ``\\n`` (copied only if it
    has a ``\\r``), so that columns stay those an editor shows.

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    str
        The text with ``\\n`` line ends only.

    Examples
    --------
    >>> normalise_newlines("a\\r\\nb\\rc")
    'a\\nb\\nc'
    """
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def content_lines(text: str, start: int = 0, comments: str = "") -> Iterator[tuple[int, int, str]]:
    """Yield ``(line number, offset, line)`` for each line of ``text`` from offset ``start`` (the
    start of a line) that has a character other than a space or a tab.

    Blank lines, and with ``comments=";"`` lines whose first such character is ``;``, are
    skipped by the regular-expression engine, so a file of millions of them costs no Python
    step per line and no list of lines is ever built. Lines end at ``\\n`` only: call
    :func:`normalise_newlines` first. Line numbers are 1-based.

    Parameters
    ----------
    text : str
        The text.
    start : int
        The offset to start at.
    comments : str
        Characters that make a line a comment (skipped) when they come first.

    Yields
    ------
    (int, int, str)
        The 1-based line number, the offset of the line and the line.

    Examples
    --------
    >>> list(content_lines("a\\n  \\n b\\n", comments=";"))
    [(1, 0, 'a'), (3, 5, ' b')]
    """
    if comments not in ("", ";"):
        raise ValueError(f"comments must be '' or ';', got {comments!r}")
    pattern = _CONTENT_NO_COMMENT if comments else _CONTENT
    lineno = 1 + text.count("\n", 0, start)
    counted = start
    pos = start
    while True:
        found = pattern.search(text, pos)
        if found is None:
            return
        begin = found.start()
        end = text.find("\n", begin)
        if end < 0:
            end = len(text)
        lineno += text.count("\n", counted, begin)
        counted = begin
        yield lineno, begin, text[begin:end]
        pos = end + 1
        if pos > len(text):
            return


def count_tokens(line: str, most: int = COUNT_UP_TO) -> int | None:
    """How many items (runs of characters other than spaces and tabs) ``line`` has, or
    ``None`` if more than ``most``: for messages about a line with too many items, which may
    have millions.

    Parameters
    ----------
    line : str
        The line.
    most : int
        The most items counted.

    Returns
    -------
    int or None
        The number of items, or ``None`` past ``most``.

    Examples
    --------
    >>> count_tokens(" 9  9\t-1 "), count_tokens("9 " * 50, most=10)
    (3, None)
    """
    count = sum(1 for _ in islice(_TOKEN.finditer(line), most + 1))
    return count if count <= most else None


def whole_number(token: str, signed: bool = False) -> int | None:
    """The value of ``token`` if it is a whole number in ASCII digits, else ``None``.

    Only ``0``-``9`` (and with ``signed`` one leading ``-``) are accepted: no ``+``, no ``_``,
    no spaces, no other scripts' digits. A number longer than :data:`MAX_DIGITS` digits
    (leading zeros aside) is refused too, before it is converted.

    Parameters
    ----------
    token : str
        The token.
    signed : bool
        Whether a leading ``-`` is allowed.

    Returns
    -------
    int or None
        Its value, or ``None``.

    Examples
    --------
    >>> [whole_number(t) for t in ("007", "+3", " 3", "1_0", "²", "")]
    [7, None, None, None, None, None]
    >>> whole_number("9" * 19) is None, whole_number("-0", signed=True)
    (True, 0)
    """
    body = token[1:] if signed and token.startswith("-") else token
    if not body or not body.isascii() or not body.isdigit():
        return None
    if len(body.lstrip("0")) > MAX_DIGITS:
        return None
    value = int(body)
    return -value if body is not token else value


def show(token: str, limit: int = 40) -> str:
    """``token`` quoted for a message, cut after ``limit`` characters
    (:func:`minegraph.present.shown`, the one rule for quoting a user's value).

    Parameters
    ----------
    token : str
        The user's text.
    limit : int
        The most characters shown.

    Returns
    -------
    str
        The quoted text.

    Examples
    --------
    >>> show("ten")
    "'ten'"
    >>> show("9" * 100, limit=5)
    "'99999'… (100 characters)"
    """
    return shown(token, limit)
