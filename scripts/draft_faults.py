"""Re-runnable catalogue of hostile or unlucky posts for `benchbook claims draft` / `benchbook audit POST`
(issue 29's commands): the breaker's faults, in `fault_catalogue.py`'s shape and outcomes.

``python scripts/draft_faults.py [--only ID[,ID...]] [--keep] [--list]`` runs each fault in a scratch
folder (``$TMPDIR/draft_faults``), classifies the outcome (ok, traceback, data loss, security, wrong
message; ``fault_catalogue.py``'s module doc) and prints a table and the totals; exit status 0 when
every fault is ``ok``.  Expected of every fault: no traceback, nothing lost, nothing unescaped on the
audit page, a ``benchbook: error:`` line naming the file and the fix for bad input, and a draft in
bounded time (``BOUND`` seconds for 100 KB of hostile text; under 2 s for an ordinary post).
Regression tests with exact values: ``tests/test_claims_draft_breaker.py`` (and
``tests/test_draft_breaker2.py`` for §X, ``tests/test_draft_breaker3.py`` for §Y, DB16, DB17).
"""

# ruff: noqa: E501 - the catalogue's rows and planted payloads read best on one line each
from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fault_catalogue as fc  # noqa: E402 - the sibling catalogue's runner and helpers
from fault_catalogue import PAYLOAD, Fault, Outcome, R, bb, expect_error, expect_ok, first_tb_line, inert, tb  # noqa: E402

fc.SCRATCH = Path(os.environ.get("TMPDIR", "/tmp")) / "draft_faults"
#: seconds a draft of 100 KB of hostile text may take (2 shared cores; an ordinary post takes < 2 s)
BOUND = 20.0
ORDINARY = "# Fast\n\nOn my RTX 4090 with llama.cpp b4000 I got 123.4 tok/s decode and 2,345 tok/s prompt processing.\n\n"


def _draft(d: Path, name: str, data: bytes | str, *extra: str, timeout: float = 90) -> R:
    f = d / name
    if isinstance(data, str):
        data = data.encode()
    f.write_bytes(data)
    return bb(d, "claims", "draft", str(f), "-o", str(d / "c.yaml"), *extra, timeout=timeout)


def _loads(d: Path, r: R, *needles: str) -> Outcome:
    """The draft exited 0 within BOUND, the claims file loads (an audit of it exits 0) and holds each needle."""
    o = expect_ok(r)
    if o.status != "ok":
        return o
    if r.secs > BOUND:
        return Outcome("wrong message", f"{r.secs:.1f} s (> {BOUND:.0f} s: denial of service)")
    a = bb(d, "audit", str(d / "c.yaml"), "--out", str(d / "o"), "--pages", str(d / "o"), timeout=90)
    if tb(a):
        return Outcome("traceback", "audit: " + first_tb_line(a))
    if a.rc is None:
        return Outcome("wrong message", f"draft {r.secs:.1f} s; its audit gave no answer in {a.secs:.0f} s")
    if a.rc != 0:
        return Outcome("wrong message", f"the draft does not load: {fc.short(a.err, 140)}")
    text = (d / "c.yaml").read_text()
    missing = [n for n in needles if n not in text]
    if missing:
        return Outcome("wrong message", f"not in the draft: {missing!r}")
    return Outcome("ok", f"{r.secs:.1f} s; loads")


def _timed(text: str, *needles: str, name: str = "post.md"):
    def f(d: Path) -> Outcome:
        return _loads(d, _draft(d, name, text), *needles)

    return f


# ---------------------------------------------------------------- §B bounded time on hostile runs


f_digits = _timed("x " + "1" * 100_000 + " tok/s\n")
f_dots = _timed("1." * 50_000 + " tok/s\n")
f_dashes = _timed("1-" * 50_000 + " tok/s\n")
f_slashes = _timed("1/" * 50_000 + " tok/s\n")
f_arabic = _timed("\u0661" * 100_000 + " tok/s\n")
f_commas = _timed("1, " * 33_000 + "5 tok/s\n", "value: 5")
f_zero_width = _timed("1\u200b" * 50_000 + " tok/s\n")
f_entities = _timed("<html><body><p>" + "&#49;" * 50_000 + " tok/s</p></body></html>", name="post.html")
f_runs = _timed(
    "a" + " " * 100_000 + "b 5 tok/s\n" + "|" * 100_000 + "\n" + "-" * 100_000 + " 6 tok/s\n", "value: 5"
)
f_long_line = _timed("decode 12.5 tok/s and " * 5_000 + "\n", "value: 12.5")
f_nested_html = _timed(
    "<html><body>" + "<div>" * 50_000 + "5 tok/s" + "</div>" * 50_000, "value: 5", name="post.html"
)
f_wide_table = _timed(
    "|"
    + "|".join(f"c{i}" for i in range(10_000))
    + "|\n|"
    + "---|" * 10_000
    + "\n|"
    + "|".join("5 tok/s" for _ in range(10_000))
    + "|\n"
)
f_empty_lines = _timed("\n" * 1_000_000 + "5 tok/s\n", "value: 5")
f_nested_lists = _timed(
    "".join("  " * i + "- a 5 tok/s\n" for i in range(2000)) + ">" * 10_000 + " 6 tok/s\n"
)
f_multiples = _timed("2× " * 30_000 + "faster\n")


# ---------------------------------------------------------------- §E encodings


def _encoded(data: bytes, *needles: str, note: str = ""):
    def f(d: Path) -> Outcome:
        r = _draft(d, "post.md", data)
        o = _loads(d, r, *needles)
        if o.status == "ok" and note and note not in r.err:
            return Outcome("wrong message", f"no note {note!r}: {fc.short(r.err, 120)}")
        if o.status == "ok" and "\ufffd" in (d / "c.yaml").read_text():
            return Outcome("data loss", "replacement characters in the quotes")
        return o

    return f


_FR = "# Vitesse\n\nDécodage : 123,4 tok/s — 速度 ６ tok/s.\n"
f_utf16_bom = _encoded(
    _FR.encode("utf-16"), 'quote: "Décodage : 123,4 tok/s — 速度 ６ tok/s."', note="UTF-16"
)
f_utf16_nobom = _encoded(
    _FR.encode("utf-16-le"), 'quote: "Décodage : 123,4 tok/s — 速度 ６ tok/s."', note="UTF-16 LE"
)
f_latin1 = _encoded(
    "# Vitesse\n\nDécodage : 123,4 tok/s.\n".encode("latin-1"),
    'quote: "Décodage : 123,4 tok/s."',
    note="line 3 not UTF-8",
)
f_mixed = _encoded(
    "# V\n\nUTF-8 : décodage 5 tok/s.\n".encode() + "Latin : décodage 6 tok/s.\n".encode("latin-1"),
    "UTF-8 : décodage",
    "Latin : décodage",
    note="line 4 not UTF-8",
)
f_nul_rtl = _encoded(b"# N\n\nDecode\x00 7 tok/s \xe2\x80\xae and \xe2\x80\x8b8 tok/s\n", "value: 7")
f_fullwidth = _encoded(
    "速度は１２３ tok/s、~６ tok/s、２× faster than 3 tok/s\n".encode(), "value: 123", "value: 6"
)


# ---------------------------------------------------------------- §H HTML and Markdown


def _page_inert(d: Path, name: str) -> Outcome:
    r = bb(d, "audit", str(d / name), "--out", str(d / "o"), "--pages", str(d / "o"), timeout=90, stdin=None)
    o = expect_ok(r)
    if o.status != "ok":
        return o
    return inert(fc.pages_text(d / "o"), "audit page")


def f_html_blocks(d: Path) -> Outcome:
    (d / "p.html").write_text(
        "<html><head><style>.x{width:999px}</style></head><body><script>var t='77 tok/s'</script>"
        "<p>Decode 12.5 tok/s &lt;script&gt;alert(1)&lt;/script&gt;</p>"
        "<table><tr><th rowspan=2>cfg</th><th colspan=2>tok/s</th></tr><tr><td>pp</td><td>tg</td></tr>"
        "<tr><td>a <b>x</td><td>100</td><td>20</tr><tr><td colspan=3>note</td></tr></table>"
        "<p>unclosed <i>tag 13 tok/s<p>" + PAYLOAD + " 14 tok/s</body></html>"
    )
    o = _page_inert(d, "p.html")
    if o.status != "ok":
        return o
    text = (d / "p.claims.yaml").read_text()
    if "value: 77" in text or "999" in text:
        return Outcome("wrong message", "a number of a <script>/<style> block was drafted")
    return o


def f_markdown_edges(d: Path) -> Outcome:
    (d / "p.md").write_text(
        "Setext heading 19 tok/s\n===\n\n- item\n\n  | a | tok/s |\n  |---|---|\n  | x | 17 |\n\n"
        "> | b | tok/s |\n> |---|---|\n> | y | 18 |\n\n"
        + PAYLOAD
        + " 15 tok/s\n\n```\nllama-bench -m x.gguf\n20 tok/s\n"
    )
    return _page_inert(d, "p.md")


def f_injection(d: Path) -> Outcome:
    (d / "p.md").write_text(
        '# Title <script>alert(1)</script> 5 tok/s\n\nI got 12.5 tok/s [clk](javascript:alert(1)) ![i](x" onerror="alert(2)) '
        '{{< include /etc/os-release >}} $x$ 13 tok/s.\n\n<div onmouseover="alert(4)">16 tok/s</div>\n\n'
        "| cfg <b>x</b> | tok/s |\n|---|---|\n| <script>alert(5)</script> | 17 |\n| {{< env HOME >}} `$y$` | 18 |\n\n"
        "It was 2× faster than 12.5 tok/s ]]> <!-- 21 tok/s --> " + PAYLOAD + "\n"
    )
    o = _page_inert(d, "p.md")
    page = fc.pages_text(d / "o")
    if o.status == "ok" and 'onmouseover="alert' in page:
        return Outcome("security", "a live event handler on the page")
    return o


def f_post_name_markup(d: Path) -> Outcome:
    name = "my post <b>x<i> $x$ {{< env HOME >}} <img src=x onerror=alert(1)> \u202e.md"
    (d / name).write_text(ORDINARY)
    return _page_inert(d, name)


# ---------------------------------------------------------------- §S stdin and -o


def f_stdin(d: Path) -> Outcome:
    r = bb(d, "claims", "draft", "-", stdin=ORDINARY)
    o = expect_ok(r)
    if o.status == "ok" and "value: 123.4" not in (d / "post.claims.yaml").read_text():
        return Outcome("wrong message", "stdin post not drafted into post.claims.yaml")
    return o


def f_dev_zero(d: Path) -> Outcome:
    r = bb(d, "claims", "draft", "/dev/zero", "-o", str(d / "c.yaml"), timeout=60)
    return expect_error(r, "/dev/zero")


def f_out_directory(d: Path) -> Outcome:
    (d / "out").mkdir()
    return expect_error(_draft(d, "post.md", ORDINARY, "-o", str(d / "out")), "out")


def f_out_unwritable(d: Path) -> Outcome:
    return expect_error(_draft(d, "post.md", ORDINARY, "-o", "/proc/nope/c.yaml"), "/proc/nope")


def f_out_the_post(d: Path) -> Outcome:
    post = d / "post.md"
    post.write_text(ORDINARY)
    (d / "link.yaml").symlink_to(post)
    for target in (post, d / "link.yaml"):
        r = bb(d, "claims", "draft", str(post), "-o", str(target))
        o = expect_error(r, target.name)
        if o.status != "ok":
            return o
        if post.read_text() != ORDINARY:
            return Outcome("data loss", f"-o {target.name} overwrote the post")
    return Outcome("ok", "refused both, post intact")


# ---------------------------------------------------------------- §N numbers


f_numbers = _timed(
    "A 1e400 tok/s run, then "
    + "1"
    + "0" * 309
    + " tok/s, -0 tok/s, -0.0 ms, NaN tok/s, inf tok/s, Infinity tok/s, "
    "1e308 tok/s, 99999999999999999999999 tok/s, 1.7976931348623157e308 tok/s\n"
)


# ---------------------------------------------------------------- §M a reviewed file drafted again

_A = "# Fast\n\nI got 123.4 tok/s decode.\n\nPrompt processing was 2345 tok/s.\n"
_REVIEWED = '  - {id: "decode-tps-l3", metric: "decode_tps", value: 123.5, unit: "tok/s", conditions: {decoding: "plain"}, source_line: 3, quote: "I got 123.4 tok/s decode.", reviewed: true}  # mine'


def _review(d: Path) -> Path:
    out = d / "c.yaml"
    text = out.read_text()
    guess = '  - {id: "decode-tps-l3", metric: "decode_tps", value: 123.4, unit: "tok/s", conditions: {decoding: "plain"}, source_line: 3, quote: "I got 123.4 tok/s decode.", reviewed: false}'
    if guess not in text:
        raise AssertionError("the first draft changed: update the catalogue")
    out.write_text(text.replace(guess, _REVIEWED))
    return out


def f_reviewed_edit(d: Path) -> Outcome:
    r = _draft(d, "post.md", _A)
    if r.rc != 0:
        return expect_ok(r)
    out = _review(d)
    before = out.read_text()
    r = _draft(d, "post.md", _A)
    o = expect_ok(r)
    if o.status != "ok":
        return o
    if out.read_text() != before:
        return Outcome("data loss", "the re-run changed the reviewed file")
    return Outcome("ok", "reviewed entry and its comment kept byte for byte")


def f_lines_moved(d: Path) -> Outcome:
    r = _draft(d, "post.md", _A)
    if r.rc != 0:
        return expect_ok(r)
    out = _review(d)
    r = _draft(d, "post.md", _A.replace("# Fast\n\n", "# Fast\n\nNew: decode 99 tok/s.\n\n"))
    o = expect_ok(r)
    if o.status != "ok":
        return o
    text = out.read_text()
    if _REVIEWED not in text:
        return Outcome("data loss", "the reviewed entry changed")
    if text.count('quote: "I got 123.4 tok/s decode."') != 1:
        return Outcome("data loss", "the reviewed number drafted a second time (lines moved)")
    if "value: 99," not in text:
        return Outcome(
            "data loss", "the new sentence's number was dropped (its id taken by the reviewed entry)"
        )
    if "its quote is now on line 5" not in r.err:
        return Outcome("wrong message", "no note that the reviewed entry's line moved")
    return Outcome("ok", "kept once, new number drafted, note names line 5")


def f_user_id(d: Path) -> Outcome:
    (d / "c.yaml").write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\nclaims:\n"
        "  - {id: decode-tps-l3, metric: decode_tps, value: 7, unit: tok/s}  # my own\n"
    )
    r = _draft(d, "post.md", _A)
    o = expect_ok(r)
    if o.status != "ok":
        return o
    text = (d / "c.yaml").read_text()
    if "value: 7, unit: tok/s}  # my own" not in text:
        return Outcome("data loss", "the user's claim changed")
    if "value: 123.4" not in text:
        return Outcome("data loss", "the drafted claim of the user's id was dropped")
    return Outcome("ok", "user's claim kept, drafted one under a fresh id")


def f_two_drafts(d: Path) -> Outcome:
    (d / "blog.md").write_text("".join(f"Run {i}: decode {i}.5 tok/s.\n\n" for i in range(2000)))
    (d / "blog.html").write_text(
        "<html><body>"
        + "".join(f"<p>Run {i}: prefill {i}.5 tok/s.</p>" for i in range(2000))
        + "</body></html>"
    )
    res: dict[str, R] = {}

    def go(name: str) -> None:
        res[name] = bb(d, "claims", "draft", str(d / name), "-o", str(d / "c.yaml"), timeout=120)

    ts = [threading.Thread(target=go, args=(n,)) for n in ("blog.md", "blog.html")]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if any(tb(r) for r in res.values()):
        return Outcome("traceback", next(first_tb_line(r) for r in res.values() if tb(r)))
    ok = [n for n, r in res.items() if r.rc == 0]
    if len(ok) != 1:
        return Outcome(
            "data loss", f"both exited {[r.rc for r in res.values()]}: one post's draft silently replaced"
        )
    other = next(n for n in res if n not in ok)
    if f'post: "{ok[0]}"' not in (d / "c.yaml").read_text():
        return Outcome("data loss", "the file holds the refused post's draft")
    return expect_error(res[other], "drafted from")


# ---------------------------------------------------------------- §X breaker2: crashes (tests/test_draft_breaker2.py)


f_empty_heading = _timed("# \n\n## ![](x.png)\n\nDecode 5 tok/s.\n", "value: 5")
f_ctx_overflow = _timed(
    "With a context of "
    + "9" * 400
    + "k tokens I got 5 tok/s.\n\n| ctx | tok/s |\n|---|---|\n| "
    + "9" * 307
    + "K | 6 |\n",
    "value: 5",
)
f_superscript_counts = _timed(
    "```\nllama-cli -m x.gguf -n ² -c ③ --temp ①\nllama-bench -m x.gguf -n ¹²⁸ -p ⁵¹²\n```\nI got 5 tok/s.\n",
    "value: 5",
)
f_zero_kinds = _timed(
    "# Mem\n\nVRAM 0 MiB < 64 MiB; 64 MiB > 0 MiB; 0 MiB < 0 MiB. At most 0 tok/s, under 0 GB. 2× faster than 0 tok/s, "
    "50% faster than 0 tok/s, temperature nan, --temp nan.\n\n| Setup | tok/s | Speedup |\n|---|---|---|\n"
    "| baseline | 0 | 1.00× |\n| MTP | 10 | 0.00× |\n| draft | 0 | nan× |\n| x | < 0 MiB | ≥ -1 |\n\n|a|\n|-|\n\n||||\n|---|---|---|\n",
    "value: 64",
)

f_bench_overflow = _timed(
    "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
    "| llama 7B Q4_K_M | " + "9" * 400 + " GiB | " + "9" * 400 + " B | CUDA | 99 | tg128 | 5.00 ± 1.00 |\n"
    "| llama 7B Q4_K_M | 1.2.3 GiB | 1.2.3 B | CUDA | 99 | tg128 | 6.00 ± 1.00 |\n"
)

# ---------------------------------------------------------------- §Y breaker3: a re-run over the user's edits, devices (tests/test_draft_breaker3.py)

_R = "# R\n\nDecode ran at 41.5 tok/s.\n\n| run | tok/s |\n|---|---|\n| a | 7 |\n"


def _edited(edit, *needles: str):
    """Draft, apply ``edit`` to the claims file, draft again: refused naming each needle, the
    file as the user left it."""

    def f(d: Path) -> Outcome:
        r = _draft(d, "post.md", _R)
        if r.rc != 0:
            return expect_ok(r)
        out = d / "c.yaml"
        text = edit(out.read_text())
        out.write_text(text)
        o = expect_error(_draft(d, "post.md", _R), *needles)
        if o.status == "ok" and out.read_text() != text:
            return Outcome("data loss", "the refused re-run changed the file")
        return o

    return f


f_alias_edit = _edited(
    lambda t: t.replace(
        "claims:\n",
        "claims:\n  - {id: a, metric: decode_tps, value: &v 5, unit: tok/s}\n"
        "  - {id: b, metric: decode_tps, value: *v, unit: tok/s}\n",
    ),
    "c.yaml:13: YAML alias *v",
)
f_complex_key_edit = _edited(lambda t: t + "? [a, b]\n: c\n", "c.yaml:23: top level: a key that is a list")
f_twice_deep_edit = _edited(
    lambda t: t + "claims:\n  - {id: z}\ndeep: " + "[" * 3000 + "]" * 3000 + "\n",
    "c.yaml:23: duplicate key 'claims'",
)


def f_broken_draft_section(d: Path) -> Outcome:
    r = _draft(d, "post.md", _R)
    if r.rc != 0:
        return expect_ok(r)
    out = d / "c.yaml"
    text = out.read_text()
    head, rest = text.split("draft:\n", 1)
    group = rest.split("groups:\n", 1)[1]
    mine = '  - {id: "g2", metric: "decode_tps", unit: "tok/s", table: [1], claims: 5}\n'
    out.write_text(
        head + "draft: 5\n" + "claims:\n" + rest.split("claims:\n", 1)[1].replace(group, mine + group)
    )
    o = expect_ok(_draft(d, "post.md", _R))
    if o.status == "ok" and mine not in out.read_text():
        return Outcome("data loss", "the user's group was dropped")
    return o


def f_scalar_entry(d: Path) -> Outcome:
    r = _draft(d, "post.md", _R)
    if r.rc != 0:
        return expect_ok(r)
    out = d / "c.yaml"
    out.write_text(out.read_text().replace("claims:\n", "claims:\n  - 41.5 tok/s on my card\n"))
    o = expect_ok(_draft(d, "post.md", _R))
    if o.status == "ok" and "  - 41.5 tok/s on my card\n" not in out.read_text():
        return Outcome("data loss", "the user's entry (no mapping) was dropped")
    if o.status == "ok":
        a = bb(d, "audit", str(out), "--out", str(d / "o"), "--pages", str(d / "o"), timeout=90)
        return expect_error(a, "c.yaml:13: claims.1")
    return o


def f_out_fifo(d: Path) -> Outcome:
    os.mkfifo(d / "sink")
    o = expect_error(_draft(d, "post.md", _R, "-o", str(d / "sink"), timeout=30), "sink: a device, pipe")
    if o.status == "ok" and not (d / "sink").is_fifo():
        return Outcome("data loss", "the pipe was replaced by a file")
    return o


def f_post_fifo(d: Path) -> Outcome:
    (d / "in").mkdir()
    os.mkfifo(d / "in" / "feed.md")

    def feed() -> None:
        with open(d / "in" / "feed.md", "w") as fh:
            fh.write(_R)

    t = threading.Thread(target=feed)
    t.start()
    r = bb(d, "claims", "draft", str(d / "in" / "feed.md"), timeout=30)
    t.join(5)
    o = expect_ok(r)
    if o.status == "ok" and not (d / "feed.claims.yaml").is_file():
        return Outcome("wrong message", "the claims file of a piped post is not in the working folder")
    return o


def f_post_folder(d: Path) -> Outcome:
    (d / "posts").mkdir()
    return expect_error(bb(d, "claims", "draft", "posts"), "posts: a folder, no post", "posts/POST.md")


def f_out_dash(d: Path) -> Outcome:
    (d / "post.md").write_text(_R)
    o = expect_error(bb(d, "claims", "draft", "post.md", "-o", "-"), "-o -: the claims file is a file")
    if o.status == "ok" and (d / "-").exists():
        return Outcome("wrong message", "a file named '-' was written")
    return o


f_setup_cards = _timed(
    "".join(f"- GPU: RTX {i}\n- ctx: {i}k\n\n" for i in range(3000)) + "Decode 5 tok/s.\n", "value: 5"
)
f_many_commands = _timed(
    "".join(
        f"```\nllama-bench -m m{i}.gguf -p 512 -n 128 -ngl {i}\n```\n\n{i} tok/s\n\n" for i in range(1500)
    ),
    "value: 1499",
)

FAULTS: list[Fault] = [
    Fault("DB01", "100,000 digits before tok/s", "§B", f"< {BOUND:.0f} s, loads", f_digits),
    Fault("DB02", "'1.1.1…' 100 KB", "§B", "bounded, loads", f_dots),
    Fault("DB03", "'1-1-1…' 100 KB", "§B", "bounded, loads", f_dashes),
    Fault("DB04", "'1/1/1…' 100 KB", "§B", "bounded, loads", f_slashes),
    Fault("DB05", "100,000 Arabic-Indic digits", "§B", "bounded, loads", f_arabic),
    Fault("DB06", "'1, 1, 1, …, 5 tok/s' 100 KB", "§B", "bounded, 5 tok/s drafted", f_commas),
    Fault("DB07", "digits between zero-width spaces 100 KB", "§B", "bounded", f_zero_width),
    Fault("DB08", "50,000 '&#49;' entities in HTML", "§B", "bounded", f_entities),
    Fault("DB09", "100,000 spaces, pipes, dashes in runs", "§B", "bounded", f_runs),
    Fault("DB10", "a 110,000-character line of prose", "§B", "bounded", f_long_line),
    Fault("DB11", "HTML nested 50,000 deep", "§B", "bounded, 5 tok/s drafted", f_nested_html),
    Fault("DB12", "a Markdown table of 10,000 columns", "§B", "bounded", f_wide_table),
    Fault("DB13", "1,000,000 empty lines", "§B", "bounded", f_empty_lines),
    Fault("DB14", "lists 2000 deep, a blockquote 10,000 deep", "§B", "bounded", f_nested_lists),
    Fault("DB15", "'2× ' 30,000 times (relating phrases)", "§B", "bounded", f_multiples),
    Fault("DE01", "UTF-16 with BOM", "§E", "quotes whole, note", f_utf16_bom),
    Fault("DE02", "UTF-16 LE without BOM", "§E", "quotes whole, note", f_utf16_nobom),
    Fault("DE03", "Latin-1 post", "§E", "quotes whole, note naming the line", f_latin1),
    Fault("DE04", "UTF-8 and Latin-1 lines mixed", "§E", "quotes whole, note", f_mixed),
    Fault("DE05", "NUL, RTL override, zero-width space", "§E", "loads, no raw control", f_nul_rtl),
    Fault(
        "DE06",
        "full-width digits '１２３ tok/s', '２×'",
        "§E",
        "numbers written as numbers, loads",
        f_fullwidth,
    ),
    Fault(
        "DH01",
        "HTML script/style, entities, rowspan/colspan, malformed tags",
        "§H",
        "page inert, no script number",
        f_html_blocks,
    ),
    Fault(
        "DH02",
        "setext heading, tables in lists/blockquotes, unclosed fence",
        "§H",
        "page inert",
        f_markdown_edges,
    ),
    Fault("DH03", "HTML/JS/Markdown/shortcode injection in a post", "§H", "page inert", f_injection),
    Fault("DH04", "post name with spaces, markup, RTL", "§H", "page inert", f_post_name_markup),
    Fault("DS01", "post on stdin", "§S", "post.claims.yaml", f_stdin),
    Fault("DS02", "/dev/zero as the post", "§S", "refused, named", f_dev_zero),
    Fault("DS03", "-o a directory", "§S", "error naming it", f_out_directory),
    Fault("DS04", "-o an unwritable path", "§S", "error naming it", f_out_unwritable),
    Fault("DS05", "-o the post itself, and a link to it", "§S", "refused, post intact", f_out_the_post),
    Fault("DN01", "1e400, 10^309 written out, -0, NaN, inf", "§N", "loads, no traceback", f_numbers),
    Fault("DM01", "reviewed entry edited, draft re-run", "§M", "file byte-identical", f_reviewed_edit),
    Fault(
        "DM02",
        "line added above a reviewed entry, re-run",
        "§M",
        "kept once, new number drafted",
        f_lines_moved,
    ),
    Fault("DM03", "drafted id held by a user's own claim", "§M", "both kept", f_user_id),
    Fault("DX01", "empty ATX headings '# ', '## ![](x.png)'", "§X", "drafts, loads", f_empty_heading),
    Fault("DX02", "a context of 400 digits + 'k'", "§X", "no ctx, loads", f_ctx_overflow),
    Fault(
        "DX03", "'-n ²', '-n ¹²⁸' (non-decimal digits) as counts", "§X", "no cap, loads", f_superscript_counts
    ),
    Fault("DX04", "zero sides, 0.00×, nan×, empty tables, temperature nan", "§X", "loads", f_zero_kinds),
    Fault("DX05", "llama-bench size/params of 400 digits, '1.2.3 GiB'", "§X", "loads", f_bench_overflow),
    Fault(
        "DK01", "two posts drafted into one -o at once", "§K", "one written, the other refused", f_two_drafts
    ),
    Fault(
        "DY01",
        "re-run after an alias added to the draft",
        "§Y",
        "refused, line named, file kept",
        f_alias_edit,
    ),
    Fault(
        "DY02",
        "re-run after a key that is a list ('? [a, b]')",
        "§Y",
        "refused, line named",
        f_complex_key_edit,
    ),
    Fault(
        "DY03",
        "re-run after 'claims:' written twice, 3000-deep nesting",
        "§Y",
        "refused, line named",
        f_twice_deep_edit,
    ),
    Fault(
        "DY04",
        "'draft: 5', a group's 'table: [1]', 'claims: 5'",
        "§Y",
        "drafts, user's group kept",
        f_broken_draft_section,
    ),
    Fault(
        "DY05",
        "an entry that is no mapping ('- 41.5 tok/s on my card')",
        "§Y",
        "kept, audit names it",
        f_scalar_entry,
    ),
    Fault("DY06", "-o a named pipe (a device: -o /dev/null)", "§Y", "refused at once, pipe kept", f_out_fifo),
    Fault(
        "DY07",
        "a post that is a named pipe (<(curl …))",
        "§Y",
        "claims file in the working folder",
        f_post_fifo,
    ),
    Fault("DY08", "a folder as the post", "§Y", "error naming a folder, no ingest advice", f_post_folder),
    Fault("DY09", "-o - (stdout expected)", "§Y", "refused, no file named '-'", f_out_dash),
    Fault("DB16", "a setup list of 3000 cards", "§B", "bounded, loads", f_setup_cards),
    Fault("DB17", "1500 command lines, one setting shared", "§B", "bounded, loads", f_many_commands),
]


if __name__ == "__main__":
    sys.exit(fc.main(faults=FAULTS, doc=__doc__))
