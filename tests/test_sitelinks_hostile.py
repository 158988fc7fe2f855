"""Odd links for the site build's dead-link check (``sitelinks``): schemes in upper case or other than
the listed ones, folders with and without an ``index.html``, fragments on a folder, query strings
before a fragment, and ``data-id`` attributes that are no anchor."""

from __future__ import annotations

from benchbook.sitelinks import dead_links


def test_dead_links_of_folders_schemes_queries_and_data_ids(tmp_path):
    s = tmp_path / "_site"
    (s / "empty").mkdir(parents=True)
    (s / "docs").mkdir()
    (s / "docs" / "index.html").write_text('<p id="ok">docs</p>')
    (s / "index.html").write_text(
        '<p id="top">x</p><span data-id="fake">not an anchor</span>'
        # external: not followed (upper-case https, tel, ftp were "no such file in the site")
        '<a href="HTTPS://example.org">a</a><a href="tel:+123">b</a><a href="ftp://example.org/f">c</a>'
        # folders: docs/ serves docs/index.html; empty/ serves nothing (both passed)
        '<a href="docs/">d</a><a href="docs">e</a><a href="docs/#ok">f</a><a href="docs/#nope">g</a>'
        '<a href="empty/">h</a><a href="empty">i</a>'
        # a query string before a fragment: the fragment is checked on the page itself
        '<a href="index.html?x=1&amp;y=2#top">j</a><a href="?x=1#top">k</a><a href="?x=1#fake">l</a>'
    )
    assert dead_links(s) == [
        "index.html: ?x=1#fake (no id 'fake' on that page)",
        "index.html: docs/#nope (no id 'nope' on that page)",
        "index.html: empty (a folder without index.html)",
        "index.html: empty/ (a folder without index.html)",
    ]
