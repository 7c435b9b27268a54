"""dot_general: bilinear, so each operand's cotangent is a dot_general of the cotangent with
the other operand, transposed into the operand's dim order.

With lhs dims split into batch B, contracting C and free F (rhs likewise) and the result
laid out [B, F_lhs, F_rhs]: ct_lhs = dot_general(ct, rhs) contracting ct's F_rhs dims with
rhs's F_rhs and batching B, giving [B, F_lhs, C_rhs...], which a transpose puts back in
lhs order (C_rhs[k] pairs with C_lhs[k]). ct_rhs is the mirror image.
"""

from __future__ import annotations

from ...dialects import hlo
from ..registry import jvp_rule, vjp_rule
from ..values import add, etype, shape


def _free(rank, batch, contracting):
    return [d for d in range(rank) if d not in batch and d not in contracting]


def _lhs_ct(ct, rhs, nl, lb, lc, rb, rc):
    """dot_general(ct, rhs): [B, F_lhs, rhs's contracting dims ascending], put in lhs order."""
    nb, n_lf = len(lb), len(_free(nl, lb, lc))
    r_free = _free(len(shape(rhs)), rb, rc)
    out = hlo.dot_general(ct, rhs, lhs_batching_dimensions=list(range(nb)), rhs_batching_dimensions=rb,
                          lhs_contracting_dimensions=list(range(nb + n_lf, nb + n_lf + len(r_free))),
                          rhs_contracting_dimensions=r_free)
    paired = sorted(range(len(rc)), key=lambda k: rc[k])
    return _to_order(out, list(lb) + _free(nl, lb, lc) + [lc[k] for k in paired])


def _rhs_ct(ct, lhs, nr, lb, lc, rb, rc):
    """dot_general(lhs, ct): [B, lhs's contracting dims ascending, F_rhs], put in rhs order
    (lhs first, so a plain matmul's kernel cotangent needs no transpose)."""
    nl = len(shape(lhs))
    nb, l_free = len(lb), _free(nl, lb, lc)
    out = hlo.dot_general(lhs, ct, lhs_batching_dimensions=lb, rhs_batching_dimensions=list(range(nb)),
                          lhs_contracting_dimensions=l_free,
                          rhs_contracting_dimensions=list(range(nb, nb + len(l_free))))
    paired = sorted(range(len(lc)), key=lambda k: lc[k])
    return _to_order(out, list(rb) + [rc[k] for k in paired] + _free(nr, rb, rc))


def _to_order(out, layout):
    """out, whose dim i is operand dim layout[i], transposed into operand order."""
    perm = [layout.index(d) for d in range(len(layout))]
    return out if perm == list(range(len(layout))) else hlo.transpose(out, perm)


def _dims(ctx):
    return (list(ctx.attr("lhs_batching_dimensions")), list(ctx.attr("rhs_batching_dimensions")),
            list(ctx.attr("lhs_contracting_dimensions")), list(ctx.attr("rhs_contracting_dimensions")))


def _as_operand_type(ct, operand):
    return ct if etype(ct) == etype(operand) else hlo.convert(ct, etype(operand))


@vjp_rule("hlo.dot_general")
def dot_general_vjp(ctx, cts):
    """dot_general(a, b): ct_a = T_a(dot_general(ct, b)), ct_b = T_b(dot_general(a, ct)),
    contracting ct's free dims of the other operand (module docstring)."""
    (ct,) = cts
    lhs, rhs = ctx.operands
    lb, rb, lc, rc = _dims(ctx)
    nl, nr = len(shape(lhs)), len(shape(rhs))
    ct_l = _lhs_ct(_as_operand_type(ct, rhs), rhs, nl, lb, lc, rb, rc)
    ct_r = _rhs_ct(_as_operand_type(ct, lhs), lhs, nr, lb, lc, rb, rc)
    return [_as_operand_type(ct_l, lhs), _as_operand_type(ct_r, rhs)]


@jvp_rule("hlo.dot_general")
def dot_general_jvp(ctx, ts):
    """dot_general(a, b): t = dot_general(t_a, b) + dot_general(a, t_b)."""
    lhs, rhs = ctx.operands
    lb, rb, lc, rc = _dims(ctx)
    et = etype(ctx.result)

    def dot(a, b):
        return hlo.dot_general(a, b, lb, rb, lc, rc, result_element_type=et)
    return [add(dot(ts[0], rhs) if ts[0] is not None else None,
                dot(lhs, ts[1]) if ts[1] is not None else None)]
