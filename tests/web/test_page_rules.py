"""The web page's presentation has one source, ``minegraph.present``: the page's
``static/rules.js`` is the module :func:`~minegraph.present.page_rules_module` generates, and
the page's script (``static/present.js``, run by node) writes percentages and heat colours
exactly as :func:`~minegraph.present.percent_places` and :func:`~minegraph.present.heat_rgb`
do, on the values where rounding is hardest. ``make node`` installs node when it is missing;
without it this test fails rather than skips.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from fractions import Fraction

from minegraph.present import heat_rgb, page_rules_module, percent_places
from minegraph.web.app import STATIC

PLACES = range(5)


def test_rules_js_is_generated_from_present_py() -> None:
    assert (STATIC / "rules.js").read_text() == page_rules_module(), \
        "static/rules.js is out of date: run make page-rules"


def _hard_values() -> list[float]:
    """Probabilities where a percentage is easy to get wrong: next to 0 and 1 (the least
    steps of every number of places, one ulp either side), the halves between two values
    shown (ties in decimal, most of them not ties in binary), the extreme doubles, and a
    seeded sample."""
    values = {2.0 ** -1074, sys.float_info.min, 2.0 ** -60, 1 - 2.0 ** -53, 0.5, 0.25, 0.125}
    for places in PLACES:
        step = 10.0 ** -(places + 2)
        for k in (1, 2, 3, 7, 50, 99, 10 ** (places + 2) - 1):
            for x in (k * step, (k - 0.5) * step, (k + 0.5) * step, 1 - k * step, 1 - (k - 0.5) * step):
                for y in (x, float.fromhex(x.hex()) * (1 + 2 ** -52), x * (1 - 2 ** -53)):
                    if 0 < y < 1:
                        values.add(y)
    rng = random.Random(36)
    values.update(rng.random() for _ in range(300))
    values.update(k / 1000 + 0.0005 for k in range(999))
    return sorted(values)


def test_the_page_writes_what_present_py_writes() -> None:
    node = shutil.which("node")
    assert node is not None, "node is missing: make node installs it with apt-get"
    values = _hard_values()
    script = ("import { percent, colour } from %s;\n"
              "const values = JSON.parse(process.argv[1]);\n"
              "const out = values.map((p) => [[0, 1, 2, 3, 4].map((k) => percent(p, k)), colour(p)]);\n"
              "process.stdout.write(JSON.stringify(out));\n"
              % json.dumps((STATIC / "present.js").as_uri()))
    # repr() round-trips every double through JSON exactly.
    answer = subprocess.run([node, "--input-type=module", "-e", script,
                             "[" + ",".join(repr(v) for v in values + [0.0, 1.0]) + "]"],
                            capture_output=True, text=True, check=True, timeout=120)
    shown = json.loads(answer.stdout)
    for p, (percents, rgb) in zip(values + [0, 1], shown):
        assert percents == [percent_places(p, k) for k in PLACES], p
        assert rgb == "rgb(%d, %d, %d)" % heat_rgb(p), p
    # The rule's promise, checked on the page's own output: 0% and 100% only when proven.
    for p, (percents, _) in zip(values, shown):
        assert not {"0%", "100%"} & set(percents), p
    assert shown[-2][0] == ["0%"] * 5 and shown[-1][0] == ["100%"] * 5


def test_percent_places_against_decimal_rounding() -> None:
    """present.percent_places, by another method: Python's decimal module rounding the exact
    value of each float half up."""
    import decimal
    exact_context = decimal.Context(prec=2000)        # a double has at most 767 digits
    for p in _hard_values()[::7]:
        for places in PLACES:
            exact = exact_context.multiply(decimal.Decimal(p), 100)   # Decimal(float) is exact
            q = exact.quantize(decimal.Decimal(1).scaleb(-places), rounding=decimal.ROUND_HALF_UP,
                               context=exact_context)
            least = decimal.Decimal(1).scaleb(-places)
            if q <= 0:
                want = f"<{least}%"
            elif q >= 100:
                want = f">{100 - least}%"
            else:
                want = f"{q}%"
            assert percent_places(p, places) == want, (p, places)
    assert percent_places(Fraction(1, 8), 0) == "13%"
