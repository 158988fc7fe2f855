"""A stand-in for polars on a measurement host that has none (the device image: no polars, no network).

Measurement code only needs polars' type objects at import time (``benchbook.schemas`` declares every
field with them and ``build`` checks values against ``String``/``Int64``/``Float64``/``Boolean``/
``List``/``Struct``); no frame is built while measuring.  ``scripts/gpu_session.sh`` appends this
folder to PYTHONPATH only when ``import polars`` fails, so a real polars always wins.  Anything that
reads or analyses frames raises ``ImportError`` here: analysis runs on the CPU host.
"""


class DataType:
    def __init__(self, *args):
        self.args = args

    def __repr__(self) -> str:
        return type(self).__name__


class String(DataType):
    pass


Utf8 = String


class Int64(DataType):
    pass


class Int32(DataType):
    pass


class Float64(DataType):
    pass


class Boolean(DataType):
    pass


class Null(DataType):
    pass


class List(DataType):
    def __init__(self, inner):
        self.inner = inner


class Struct(DataType):
    def __init__(self, fields):
        self.fields = fields


class _Absent:
    """Any other polars name: usable in annotations, fails when used."""

    def __init__(self, *_args, **_kwargs):
        raise ImportError(
            "polars is not installed here (scripts/gpu_polars_stub); fix: analyse on the CPU host"
        )


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    return type(name, (_Absent,), {})
