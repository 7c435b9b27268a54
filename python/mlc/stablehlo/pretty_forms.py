"""The custom assembly of each StableHLO/CHLO op, read into the generic form.

FORMS maps an op name to a reader(reader, op) -> (operands, attributes, regions, operand
types, result types); ops without an entry use the default form `op %a, %b {attrs} : types`
(elementwise ops, convert, reshape, select, clamp, return, chlo ops, ...)."""

from __future__ import annotations

from typing import Callable

from .lexer import Token

FORMS: dict[str, Callable] = {}


def form(*names: str):
    def register(fn):
        for name in names:
            FORMS[name] = fn
        return fn
    return register


def _array(values) -> str:
    return "array<i64" + (": " + ", ".join(str(v) for v in values) if values else "") + ">"


def _list(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _supported(op: str) -> bool:
    """An op the importer converts: its custom form is read by FORMS or the default form."""
    from ..dialects.hlo import OPS
    from .registry import RULES, load_rules
    load_rules()
    return op in FORMS or op in RULES or (op.startswith("stablehlo.") and op[10:] in OPS) \
        or op == "stablehlo.return"


def read_op(reader, name: Token) -> str:
    op = name.text
    from .registry import REJECTED
    if op in REJECTED:
        raise reader.error(name, f"'{op}': {REJECTED[op]}")
    if not _supported(op):
        # The same message the generic form gets from convert.py.
        raise reader.error(name, f"'{op}' is not supported by MLC's StableHLO import")
    reader.next()
    reader_fn = FORMS.get(op, default_form)
    operands, attrs, regions, operand_types, result_types = reader_fn(reader, op)
    location = reader.location(name)
    if reader.at("loc") and reader.peek(1) is not None and reader.peek(1).text == "(":
        start = reader.next()  # the input's own location (debug info) wins over ours
        reader.raw_until_balanced("(", ")")
        location = reader.text[start.start:reader.peek(-1).end]
    text = f'"{op}"(' + ", ".join(operands) + ")"
    if regions:
        text += " (" + ", ".join(regions) + ")"
    if attrs:
        text += " {" + ", ".join(attrs) + "}"
    results = result_types[0] if len(result_types) == 1 else "(" + ", ".join(result_types) + ")"
    text += " : (" + ", ".join(operand_types) + ") -> " + results
    return text + " " + location


# Ops whose default form has no results (terminators) or one result per operand.
_NO_RESULTS = ("stablehlo.return",)
_RESULT_PER_OPERAND = ("stablehlo.optimization_barrier",)


def default_form(reader, op):
    operands = reader.values() if reader.peek() is not None and reader.peek().kind == "value" else []
    attrs = reader.attr_dict()
    types, results = reader.trailing_types()
    if op in _NO_RESULTS:
        return operands, attrs, [], types, []
    if results is not None:
        return operands, attrs, [], types, results
    if op in _RESULT_PER_OPERAND:
        return operands, attrs, [], types, types
    if op == "stablehlo.select" and len(types) == 2:  # `: pred type, value type`
        return operands, attrs, [], [types[0], types[1], types[1]], [types[1]]
    if len(types) == 1:  # `: T`: every operand and the result have type T
        return operands, attrs, [], types * len(operands), types
    raise reader.error(reader.peek(-1) or reader.peek(), f"cannot read the types of '{op}'")


def _functional(reader, operands, attrs, op):
    types, results = reader.trailing_types()
    if results is None:
        if len(types) != 1:
            raise reader.error(reader.peek(-1), f"cannot read the types of '{op}'")
        types, results = types * len(operands), types
    return operands, attrs, [], types, results


@form("stablehlo.constant")
def constant(reader, op):
    attrs = reader.attr_dict()
    start = reader.peek()
    value = reader.next().text
    types, _ = reader.trailing_types()
    if start.text.startswith("dense") or start.kind in ("ident", "hash"):
        return [], attrs + [f"value = {value} : {types[0]}"], [], [], types
    raise reader.error(start, f"cannot read the constant '{value}'")


@form("stablehlo.iota")
def iota(reader, op):
    reader.expect("dim")
    reader.expect("=")
    dim = reader.next().text
    attrs = reader.attr_dict()
    types, _ = reader.trailing_types()
    return [], [f"iota_dimension = {dim} : i64"] + attrs, [], [], types


def _compare_enum(kind, value):
    return f"#stablehlo<{kind} {value}>"


@form("stablehlo.compare")
def compare(reader, op):
    direction = reader.next().text
    reader.expect(",")
    operands = reader.values()
    attrs = [f"comparison_direction = {_compare_enum('comparison_direction', direction)}"]
    if reader.accept(","):
        attrs.append(f"compare_type = {_compare_enum('comparison_type', reader.next().text)}")
    attrs += reader.attr_dict()
    return _functional(reader, operands, attrs, op)


def _keyword_list_form(attr_names: dict[str, str]):
    """`op %a, %b, key = [..], ... : types` with each key renamed to its attribute."""
    def read(reader, op):
        operands = reader.values()
        attrs = []
        while reader.accept(","):
            key = reader.next()
            if key.text not in attr_names:
                raise reader.error(key, f"unexpected '{key.text}' in '{op}'")
            reader.expect("=")
            if reader.at("["):
                attrs.append(f"{attr_names[key.text]} = {_array(reader.int_list())}")
            else:
                attrs.append(f"{attr_names[key.text]} = {reader.next().text} : i64")
        attrs += reader.attr_dict()
        return _functional(reader, operands, attrs, op)
    return read


form("stablehlo.broadcast_in_dim")(_keyword_list_form({"dims": "broadcast_dimensions"}))
form("stablehlo.dynamic_broadcast_in_dim")(_keyword_list_form({
    "dims": "broadcast_dimensions", "known_expanding_dimensions": "known_expanding_dimensions",
    "known_nonexpanding_dimensions": "known_nonexpanding_dimensions"}))
form("stablehlo.transpose")(_keyword_list_form({"dims": "permutation"}))
form("stablehlo.reverse")(_keyword_list_form({"dims": "dimensions"}))
form("stablehlo.concatenate")(_keyword_list_form({"dim": "dimension"}))
form("stablehlo.dynamic_slice")(_keyword_list_form({"sizes": "slice_sizes"}))
form("stablehlo.pad")(_keyword_list_form({"low": "edge_padding_low", "high": "edge_padding_high",
                                          "interior": "interior_padding"}))


@form("stablehlo.slice")
def slice_(reader, op):
    operands = [reader.value()]
    reader.expect("[")
    starts, limits, strides = [], [], []
    while not reader.at("]"):
        parts = [int(reader.next().text)]
        while reader.accept(":"):
            parts.append(int(reader.next().text))
        starts.append(parts[0])
        limits.append(parts[1])
        strides.append(parts[2] if len(parts) > 2 else 1)
        reader.accept(",")
    reader.expect("]")
    attrs = [f"start_indices = {_array(starts)}", f"limit_indices = {_array(limits)}",
             f"strides = {_array(strides)}"] + reader.attr_dict()
    return _functional(reader, operands, attrs, op)


@form("stablehlo.dot_general")
def dot_general(reader, op):
    operands = reader.values()
    fields = []
    while reader.accept(","):
        key = reader.next()
        reader.expect("=")
        if key.text in ("batching_dims", "contracting_dims"):
            lhs = reader.int_list()
            reader.expect("x")
            rhs = reader.int_list()
            word = "batching" if key.text == "batching_dims" else "contracting"
            fields += [f"lhs_{word}_dimensions = {_list(lhs)}", f"rhs_{word}_dimensions = {_list(rhs)}"]
        elif key.text in ("precision", "algorithm"):
            # Precision hints do not change results on CPU; the generic importer drops them too.
            if reader.at("[") or reader.at("<"):
                reader.raw_until_balanced(reader.peek().text, "]" if reader.at("[") else ">")
            else:
                reader.next()
        else:
            raise reader.error(key, f"unexpected '{key.text}' in '{op}'")
    fields.sort(key=lambda f: ("batching" not in f, not f.startswith("lhs")))
    attrs = [f"dot_dimension_numbers = #stablehlo.dot<{', '.join(fields)}>"] + reader.attr_dict()
    return _functional(reader, operands, attrs, op)


@form("stablehlo.convolution")
def convolution(reader, op):
    reader.expect("(")
    operands = reader.values()
    reader.expect(")")
    attrs = []
    reader.expect("dim_numbers")
    reader.expect("=")
    first = reader.peek()
    while not (reader.at(",", "{", ":")):  # `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`
        if reader.at("["):
            reader.raw_until_balanced("[", "]")
        else:
            reader.next()
    dims = reader.text[first.start:reader.peek(-1).end]
    attrs.append(f"dimension_numbers = #stablehlo.conv<{dims}>")
    if reader.accept(","):
        reader.expect("window")
        reader.expect("=")
        reader.expect("{")
        while not reader.accept("}"):
            key = reader.next().text
            reader.expect("=")
            if key == "pad":
                start = reader.peek()
                reader.raw_until_balanced("[", "]")
                raw = reader.text[start.start:reader.peek(-1).end]
                n = raw.count("[") - 1
                attrs.append(f"padding = dense<{raw}> : tensor<{n}x2xi64>")
            elif key == "reverse":
                raw = reader.raw_until_balanced("[", "]")
                attrs.append(f"window_reversal = array<i1: {raw}>")
            else:
                name = {"stride": "window_strides", "lhs_dilate": "lhs_dilation",
                        "rhs_dilate": "rhs_dilation"}.get(key)
                if name is None:
                    raise reader.error(reader.peek(-1), f"unexpected window field '{key}'")
                attrs.append(f"{name} = {_array(reader.int_list())}")
            reader.accept(",")
    attrs += reader.attr_dict()
    return _functional(reader, operands, attrs, op)


@form("stablehlo.reduce")
def reduce(reader, op):
    inputs, inits = [], []
    while True:
        reader.expect("(")
        inputs.append(reader.value())
        reader.expect("init")
        reader.expect(":")
        inits.append(reader.value())
        reader.expect(")")
        if not reader.accept(","):
            break
    combiner = None
    if reader.accept("applies"):
        combiner = reader.next().text
    reader.expect("across")
    reader.expect("dimensions")
    reader.expect("=")
    attrs = [f"dimensions = {_array(reader.int_list())}"] + reader.attr_dict()
    types, results = reader.trailing_types()
    n = len(inputs)
    init_types = types[n:]
    if combiner is not None:
        a, b, c = reader.fresh(), reader.fresh(), reader.fresh()
        t = init_types[0]
        region = (f'{{ ^bb0({a}: {t}, {b}: {t}): {c} = "{combiner}"({a}, {b}) : ({t}, {t}) -> {t} '
                  f'"stablehlo.return"({c}) : ({t}) -> () }}')
    else:
        reader.expect("reducer")
        lhs, rhs = [], []
        for _ in range(n):  # one `(%lhs: T, %rhs: T)` group per input
            reader.expect("(")
            lhs.append(reader.block_argument())
            reader.expect(",")
            rhs.append(reader.block_argument())
            reader.expect(")")
        region = reader.region(", ".join(lhs + rhs))
    return inputs + inits, attrs, [region], types, results


@form("stablehlo.while")
def while_(reader, op):
    reader.expect("(")
    names, inits = [], []
    while not reader.accept(")"):
        names.append(reader.value())
        reader.expect("=")
        inits.append(reader.value())
        reader.accept(",")
    types, _ = reader.trailing_types()
    attrs = reader.attr_dict()
    args = ", ".join(f"{n}: {t}" for n, t in zip(names, types))
    reader.expect("cond")
    cond = reader.region(args)
    reader.expect("do")
    body = reader.region(args)
    return inits, attrs, [cond, body], types, types


@form("stablehlo.custom_call")
def custom_call(reader, op):
    target = reader.next()
    if target.kind != "symbol":
        raise reader.error(target, "expected the custom call's target (@name)")
    reader.expect("(")
    operands = [] if reader.at(")") else reader.values()
    reader.expect(")")
    attrs = [f'call_target_name = "{target.text[1:].strip(chr(34))}"'] + reader.attr_dict()
    return _functional(reader, operands, attrs, op)


@form("chlo.top_k")
def top_k(reader, op):
    reader.expect("(")
    operands = [reader.value()]
    reader.expect(",")
    reader.expect("k")
    reader.expect("=")
    attrs = [f"k = {reader.next().text} : i64"]
    reader.expect(")")
    attrs += reader.attr_dict()
    types, results = reader.trailing_types()
    return operands, attrs, [], types, results


@form("stablehlo.composite")
def composite(reader, op):
    name = reader.next()
    if name.kind != "string":
        raise reader.error(name, "expected the composite's name (a string)")
    operands = reader.values() if reader.peek().kind == "value" else []
    attrs = [f"name = {name.text}"] + reader.attr_dict()
    return _functional(reader, operands, attrs, op)


def _keyword(reader, key: str) -> str:
    """`, key = value` -> value's text."""
    reader.expect(",")
    reader.expect(key)
    reader.expect("=")
    return reader.next().text


@form("stablehlo.cholesky")
def cholesky(reader, op):
    operands = [reader.value()]
    attrs = [f"lower = {_keyword(reader, 'lower')}"] if reader.at(",") else []
    return _functional(reader, operands, attrs + reader.attr_dict(), op)


@form("stablehlo.reduce_precision")
def reduce_precision(reader, op):
    operands = [reader.value()]
    token = reader.peek(3)
    fmt = _keyword(reader, "format")  # e5m10
    if not (fmt.startswith("e") and "m" in fmt):
        raise reader.error(token, f"expected a format eXmY, got '{fmt}'")
    exponent, mantissa = fmt[1:].split("m")
    attrs = [f"exponent_bits = {exponent} : i32", f"mantissa_bits = {mantissa} : i32"]
    return _functional(reader, operands, attrs + reader.attr_dict(), op)


@form("stablehlo.rng_bit_generator")
def rng_bit_generator(reader, op):
    operands = [reader.value()]
    algorithm = _keyword(reader, "algorithm")
    attrs = [f"rng_algorithm = #stablehlo<rng_algorithm {algorithm}>"] + reader.attr_dict()
    types, results = reader.trailing_types()
    return operands, attrs, [], types, results


@form("stablehlo.dynamic_iota")
def dynamic_iota(reader, op):
    operands = [reader.value()]
    attrs = [f"iota_dimension = {_keyword(reader, 'dim')} : i64"] + reader.attr_dict()
    types, results = reader.trailing_types()
    return operands, attrs, [], types, results


@form("stablehlo.tuple")
def tuple_(reader, op):
    operands = reader.values() if reader.peek().kind == "value" else []
    attrs = reader.attr_dict()
    reader.expect(":")
    tuple_type = reader.type_()
    return operands, attrs, [], _tuple_elements(tuple_type), [tuple_type]


def _tuple_elements(tuple_type: str) -> list[str]:
    """The element types of `tuple<A, B<...>, ...>` (top-level commas only)."""
    inner = tuple_type[tuple_type.index("<") + 1:tuple_type.rindex(">")]
    out, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(inner[start:i].strip())
            start = i + 1
    if inner.strip():
        out.append(inner[start:].strip())
    return out


@form("stablehlo.get_tuple_element")
def get_tuple_element(reader, op):
    operands = [reader.value()]
    reader.expect("[")
    index = reader.next().text
    reader.expect("]")
    attrs = [f"index = {index} : i32"] + reader.attr_dict()
    return _functional(reader, operands, attrs, op)
