"""`mutants()`: invalid (or at least suspicious) IR made by mutating valid generated programs.

Each mutant is the text of a valid program (hlo_programs.py) with one edit: truncated at a
random point, an element type or a dimension changed in one type, an attribute removed or
given a bad value (out-of-range dims, negative sizes, unknown strings, wrong attribute
kind), an op renamed to an unknown `hlo.` op, an operand replaced by an undefined value,
or the result type of the function changed.

The contract `check_mutant` checks: `mlc.compile(text)` either succeeds (the edit kept the
program valid) or raises `mlc.CompileError`, `TypeError` or `ValueError` with a non-empty
message. Any other exception is a failure; a crash or a hang is detected by the worker
process that runs the check (sandbox.py).
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

from .hlo_programs import hlo_programs

ELEMENT_TYPES = ["i1", "i8", "i16", "i32", "i64", "ui8", "ui32", "f16", "f32", "f64", "bf16", "index",
                 "i7", "f8E4M3FN", "complex<f32>"]
BAD_NUMBERS = ["-1", "0", "99", "-7", "9223372036854775807", "-9223372036854775808", "1"]
_TYPE = re.compile(r"tensor<([0-9x]*)([a-z0-9<>A-Z]+)>")
_ATTR = re.compile(r"(\w+) = (array<i64(?::[^>]*)?>|\"[A-Za-z_]*\"|-?\d+ : i64|dense<[^>]*> : tensor<[^>]*>|true|false)")
_OP = re.compile(r"\"hlo\.(\w+)\"")
_VALUE = re.compile(r"%(arg\d+|\d+)\b")


def _truncate(draw, text):
    return text[:draw(st.integers(0, max(len(text) - 1, 0)))]


def _retype(draw, text):
    matches = list(_TYPE.finditer(text))
    if not matches:
        return None
    m = draw(st.sampled_from(matches))
    dims = m.group(1)
    if draw(st.booleans()) or not dims:
        new = f"tensor<{dims}{draw(st.sampled_from(ELEMENT_TYPES))}>"
    else:
        parts = dims.rstrip("x").split("x")
        i = draw(st.integers(0, len(parts) - 1))
        parts[i] = draw(st.sampled_from(["0", "1", "4", "7", "?"]))
        if draw(st.booleans()):
            parts = parts[:i] + parts[i + 1:]
        new = "tensor<" + "".join(p + "x" for p in parts) + m.group(2) + ">"
    return text[:m.start()] + new + text[m.end():]


def _drop_attribute(draw, text):
    matches = list(_ATTR.finditer(text))
    if not matches:
        return None
    m = draw(st.sampled_from(matches))
    start, end = m.start(), m.end()
    if text[end:end + 2] == ", ":
        end += 2
    elif text[start - 2:start] == ", ":
        start -= 2
    return text[:start] + text[end:]


def _bad_attribute(draw, text):
    matches = list(_ATTR.finditer(text))
    if not matches:
        return None
    m = draw(st.sampled_from(matches))
    value = m.group(2)
    if value.startswith("array"):
        n = len(value.split(":")[1].split(",")) if ":" in value else 0
        entries = [draw(st.sampled_from(BAD_NUMBERS)) for _ in range(draw(st.sampled_from([n, n, n + 1, max(n - 1, 0)])))]
        new = f"array<i64: {', '.join(entries)}>" if entries else "array<i64>"
        if draw(st.integers(0, 4)) == 0:
            new = "array<i32: 1>"
    elif value.startswith('"'):
        new = draw(st.sampled_from(['"BOGUS"', '""', '"add"', '"set"', '"TOTALORDER"', '1 : i64']))
    elif value.endswith(": i64"):
        new = draw(st.sampled_from(BAD_NUMBERS)) + draw(st.sampled_from([" : i64", " : i32", ""]))
        if draw(st.integers(0, 4)) == 0:
            new = '"zero"'
    elif value.startswith("dense"):
        new = draw(st.sampled_from(["dense<-5> : tensor<1x2xi64>", "dense<[[1, 2, 3]]> : tensor<1x3xi64>",
                                    "dense<1.5> : tensor<f32>", "array<i64: 1>"]))
    else:
        new = draw(st.sampled_from(["1 : i64", '"yes"', "false"]))
    return text[:m.start(2)] + new + text[m.end(2):]


def _unknown_op(draw, text):
    matches = list(_OP.finditer(text))
    if not matches:
        return None
    m = draw(st.sampled_from(matches))
    new = draw(st.sampled_from(['"hlo.bogus"', '"hlo.while"', '"stablehlo.add"', '"hlo.Add"', '"hlo."']))
    return text[:m.start()] + new + text[m.end():]


def _undefined_value(draw, text):
    matches = [m for m in _VALUE.finditer(text) if not text[m.end():m.end() + 2].startswith(":")]
    if not matches:
        return None
    m = draw(st.sampled_from(matches))
    return text[:m.start()] + draw(st.sampled_from(["%undefined", "%arg99", "%999"])) + text[m.end():]


def _swap_results(draw, text):
    m = re.search(r"-> \(?([^{]*?)\)? \{", text)
    if not m:
        return None
    return text[:m.start(1)] + draw(st.sampled_from(["tensor<f32>", "tensor<2xi32>", "f32", "tensor<*xf32>"])) + text[m.end(1):]


MUTATIONS = {"truncate": _truncate, "retype": _retype, "drop-attribute": _drop_attribute,
             "bad-attribute": _bad_attribute, "unknown-op": _unknown_op,
             "undefined-value": _undefined_value, "result-type": _swap_results}


@st.composite
def mutants(draw, max_ops=4):
    """(mutation name, mutated text)."""
    program = draw(hlo_programs(max_ops=max_ops))
    name = draw(st.sampled_from(sorted(MUTATIONS)))
    text = MUTATIONS[name](draw, program.text)
    if text is None or text == program.text:
        text, name = _truncate(draw, program.text), "truncate"
    return name, text


CLEAN = ("CompileError", "TypeError", "ValueError")


def check_mutant(text: str):
    """None when compiling `text` succeeds or fails cleanly; else (kind, message)."""
    import mlc
    try:
        mlc.compile(text)
    except (mlc.CompileError, TypeError, ValueError) as exc:
        if not str(exc).strip():
            return "unclean-diagnostic", f"{type(exc).__name__} without a message"
        return None
    except Exception as exc:
        return "unclean-diagnostic", f"compile raised {type(exc).__name__}: {str(exc)[:400]}"
    return None
