"""Key: value result lines run together in prose (``draftprose.metric_of``, issue 29): the words
after a number up to a colon are the next pair's label ("total duration: 9.87s load duration:
0.55s"), not the number's name.  Control: a name right after a number with no colon still names
it.  A machine's unified memory written in Chinese, Japanese or Korean is a spec, not a claim
(``draftsentences._MEMORY_KIND``); control: the memory a run used.  The texts are made up here in
the shapes posts use."""

from __future__ import annotations

from benchbook.audit.draftprose import metric_of
from drafting import drafted as _drafted


def test_the_next_pairs_label_does_not_name_a_number():
    assert metric_of("s", "total duration: ", " load duration: 0.55s eval count: 90") == "duration"
    assert metric_of("s", "load duration: ", " prompt eval count: 12") == "load_time"
    assert metric_of("GB", "usage: ", " VRAM: 3 GB") == "size"
    # controls: a name right after the number, no colon: still its name
    assert metric_of("s", "it took ", " to load the weights") == "load_time"
    assert metric_of("GB", "about ", " VRAM in use") == "vram"


def test_a_pasted_summary_as_a_paragraph(tmp_path):
    text = (
        "Output:\n\ntotal duration:       9.87s\nload duration:        0.55s\neval rate:   18.20 tokens/s\n"
    )
    cf = _drafted(text, tmp_path)
    by_value = {c.value: c.metric for c in cf.claims}
    assert by_value[9.87] == "duration"
    assert by_value[0.55] == "load_time"


def test_unified_memory_in_a_machine_line_is_a_spec_in_other_languages(tmp_path):
    text = "测试平台：Mac Studio M1 Ultra，128GB 统一内存。\n\n生成速度 35.2 tok/s，统一内存占用 41.5 GB。\n"
    cf = _drafted(text, tmp_path)
    values = sorted(c.value for c in cf.claims)
    # the machine's 128 GB is no claim; control: the memory the run used still is one
    assert values == [35.2, 41.5]
