"""What a pass is in MLC, how it joins an upstream PassManager, and the @pattern wrapper.

A pass is a frozen dataclass: `name` is its CLI argument, fields are its options (parsed
from `name{opt=val}`), `run(module)` does the work. Python passes and upstream passes mix in
one `PassManager`; a Python pass that finds a user error raises `PassError` with the
location, which becomes an MLIR error diagnostic and a pass failure. Any other exception
in a pass is a bug in MLC: it becomes an "internal compiler error" diagnostic naming the
pass, the exception and where in MLC it was raised (no traceback from inside the
bindings' callback), and a pass failure too.
"""

from __future__ import annotations

import dataclasses
import traceback
import typing
from dataclasses import dataclass
from typing import Callable, ClassVar

from mlir import ir, passmanager, rewrite


class PassError(Exception):
    """A pass failed on this IR: `message` at `location` (the op it is about)."""

    def __init__(self, message: str, location: ir.Location | None = None):
        super().__init__(message)
        self.message = message
        self.location = location


class OptionError(ValueError):
    """A pass option that does not exist or whose value does not parse."""


@dataclass(frozen=True)
class Pass:
    """Base of every MLC pass. Subclasses set `name` and implement `run`."""

    name: ClassVar[str] = ""

    def run(self, module: ir.Operation) -> None:
        raise NotImplementedError

    @classmethod
    def summary(cls) -> str:
        """The docstring's first paragraph, on one line (a sentence may span lines)."""
        paragraph = (cls.__doc__ or "").strip().split("\n\n")[0]
        return " ".join(line.strip() for line in paragraph.splitlines())

    @classmethod
    def from_options(cls, options: dict[str, str]) -> "Pass":
        """Builds the pass from `{opt=val}` text values, converting each to its field's type."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        hints = typing.get_type_hints(cls)
        values = {}
        for key, text in options.items():
            attr = key.replace("-", "_")
            if attr not in fields:
                known = ", ".join(f.replace("_", "-") for f in fields) or "none"
                raise OptionError(f"pass '{cls.name}' has no option '{key}' (options: {known})")
            values[attr] = _parse_option(cls.name, key, text, hints[attr])
        try:
            return cls(**values)
        except ValueError as e:
            raise OptionError(f"pass '{cls.name}': {e}") from None

    def pipeline_text(self) -> str:
        opts = [f"{f.name.replace('_', '-')}={getattr(self, f.name)}"
                for f in dataclasses.fields(self) if getattr(self, f.name) != f.default]
        return self.name + ("{" + " ".join(opts) + "}" if opts else "")

    def add_to(self, pm: passmanager.PassManager) -> None:
        pm.add(self._run_with_diagnostics, name=type(self).__name__, argument=self.name)

    def _run_with_diagnostics(self, op, external_pass) -> None:
        try:
            # Types built while rewriting need a context and a location to report against.
            with op.context, ir.Location.unknown(op.context):
                self.run(op)
        except PassError as e:
            (e.location or op.location).emit_error(e.message)
            external_pass.signal_pass_failure()
        except Exception as e:  # a bug in the pass: say so, where, and fail the pass
            op.location.emit_error(internal_error(self.name, e))
            external_pass.signal_pass_failure()


INTERNAL_ERROR = "internal compiler error"  # how the diagnostic starts (run_passes looks for it)
_PASS_CODE = ("transforms/", "conversion/", "codegen/")
_PLUMBING = ("pass_base.py", "patterns.py")  # the wrappers every rule runs under


def internal_error(pass_name: str, error: Exception) -> str:
    """The diagnostic for an unexpected exception in a pass: its type and message, the
    innermost frame in MLC's own code that raised it and the innermost frame of pass code
    (transforms/, conversion/, codegen/: the rule or step that called it)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "/mlc/" in f.filename.replace("\\", "/")]
    shown = frames[-1:]
    passes = [f for f in frames if f.filename.split("/mlc/")[-1].startswith(_PASS_CODE)
              and not f.filename.endswith(_PLUMBING)]
    if passes and passes[-1] is not frames[-1]:
        shown.append(passes[-1])
    where = " (raised at " + ", called from ".join(
        f"{f.filename.split('/mlc/')[-1]}:{f.lineno} {f.name}" for f in shown) + ")" if shown else ""
    return (f"{INTERNAL_ERROR} in pass '{pass_name}': {type(error).__name__}: {error}{where}; "
            f"please report it with the input program")


@dataclass(frozen=True)
class UpstreamPasses(Pass):
    """Upstream MLIR passes given as pipeline text, e.g. `func.func(canonicalize),cse`."""

    name = "upstream"
    pipeline: str = ""

    def add_to(self, pm: passmanager.PassManager) -> None:
        pm.add(self.pipeline)

    def pipeline_text(self) -> str:
        return self.pipeline


@dataclass(frozen=True)
class PassPipeline(Pass):
    """A named sequence of passes (MLC's and upstream's) that runs as one."""

    def passes(self) -> list[Pass]:
        raise NotImplementedError

    def add_to(self, pm: passmanager.PassManager) -> None:
        for p in self.passes():
            p.add_to(pm)


def _parse_option(pass_name: str, key: str, text: str, hint) -> object:
    try:
        if hint is bool:
            if text.lower() not in ("true", "false", "1", "0"):
                raise ValueError(text)
            return text.lower() in ("true", "1")
        return hint(text)
    except ValueError:
        raise OptionError(f"pass '{pass_name}' option '{key}': cannot parse '{text}' as "
                          f"{getattr(hint, '__name__', hint)}") from None


# --- rewrite patterns -------------------------------------------------------------------

PatternFn = Callable[[ir.Operation, rewrite.PatternRewriter], object]


def as_upstream_pattern(fn: PatternFn):
    """Adapts `fn(op, rewriter)` to mlir.rewrite's convention.

    `fn` returns None when it does not match and anything else when it rewrote; upstream
    wants the opposite truthiness (a truthy return means failure to match).
    """

    def callback(op, rewriter):
        return fn(op, rewriter) is None

    callback.__name__ = getattr(fn, "__name__", "pattern")
    return callback


def apply_patterns(root: ir.Operation, patterns: dict[str, list[PatternFn]], *,
                   fold: bool = False, max_iterations: int | None = None) -> None:
    """Applies `{op name: [pattern, ...]}` greedily to `root` until nothing matches."""
    pattern_set = rewrite.RewritePatternSet(root.context)
    for op_name, fns in patterns.items():
        for fn in fns:
            pattern_set.add(op_name, as_upstream_pattern(fn))
    config = rewrite.GreedyRewriteConfig()
    config.enable_folding = fold
    if max_iterations is not None:
        config.max_iterations = max_iterations
    rewrite.apply_patterns_and_fold_greedily(root, pattern_set.freeze(), config)
