"""The assessment report: a win-rate heatmap, ratings and fair-value pictures (matplotlib PNGs)
and one self-contained HTML page that embeds them as base64 (it opens with no internet)."""

from __future__ import annotations

import base64
import html
import io
import math
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from kolrami.errors import InvalidInputError
from kolrami.errors import quoted
from kolrami.sim.assess import Assessment
from kolrami.sim.fairvalue import MARKS
from kolrami.sim.stats import ELO_ORIGIN
from kolrami.sim.stats import ELO_PER_LOGIT

DPI = 110


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    try:
        fig.savefig(buf, format="png", bbox_inches="tight")
    finally:
        plt.close(fig)
    return buf.getvalue()


def heatmap_png(a: Assessment) -> bytes:
    """Score of each row against each column (draws count half), strongest first."""
    order = a.order()
    names = [a.plan.combatants[i].label for i in order]
    table = a.score_table()[np.ix_(order, order)]
    k = len(order)
    size = max(5.0, 0.62 * k + 2.5)
    fig, ax = plt.subplots(figsize=(size + 1.2, size), dpi=DPI)
    shown = np.ma.masked_invalid(table * 100)
    image = ax.imshow(shown, cmap="RdBu", vmin=0, vmax=100)
    ax.set_xticks(range(k), labels=names, rotation=45, ha="right")
    ax.set_yticks(range(k), labels=names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("combatant")
    font = 9 if k <= 10 else 7 if k <= 16 else 5
    for i in range(k):
        for j in range(k):
            if i == j or math.isnan(table[i, j]):
                continue
            v = table[i, j] * 100
            ax.text(
                j,
                i,
                f"{v:.0f}",
                ha="center",
                va="center",
                fontsize=font,
                color="white" if v < 20 or v > 80 else "black",
            )
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="score % (wins + half the draws)")
    ax.set_title(f"Win rate, row against column ({a.plan.battles} battles a matchup)")
    return _png(fig)


def ratings_png(a: Assessment) -> bytes:
    """Each combatant's rating with its 95% interval, strongest at the top."""
    order = a.order()[::-1]
    elo = a.ratings.elo()
    lo, hi = a.ratings.elo_interval()
    names = [a.plan.combatants[i].label for i in order]
    k = len(order)
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.42 * k + 1.2)), dpi=DPI)
    ys = np.arange(k)
    centre = np.array([elo[i] for i in order])
    err = np.array([[elo[i] - lo[i] for i in order], [hi[i] - elo[i] for i in order]])
    ax.errorbar(centre, ys, xerr=err, fmt="o", color="#1d3f6e", ecolor="#3b7dd8", capsize=4)
    ax.axvline(ELO_ORIGIN, color="grey", linestyle=":", linewidth=1)
    ax.set_yticks(ys, labels=names)
    ax.set_xlabel(f"rating (Elo scale, field mean {ELO_ORIGIN:.0f}), 95% interval")
    ax.set_title("Bradley-Terry ratings")
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def fair_value_png(a: Assessment) -> bytes | None:
    """Rating against SP cost with the price line; None when no line could be fitted."""
    line = a.fair.line
    if line is None:
        return None
    costs = np.array([c.cost for c in a.plan.combatants], dtype=float)
    elo = a.ratings.elo()
    mean_theta = float(a.ratings.theta.mean())
    lo, hi = a.ratings.elo_interval()
    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=DPI)
    ax.errorbar(
        costs, elo, yerr=[elo - lo, hi - elo], fmt="o", color="#1d3f6e", ecolor="#3b7dd8", capsize=3
    )
    # labels cycle up-left, down-right, up-right in order of cost: neighbours do not overlap
    places = (((-6, 6), "right"), ((6, -12), "left"), ((6, 6), "left"))
    for rank, i in enumerate(np.argsort(costs, kind="stable")):
        offset, align = places[rank % 3]
        ax.annotate(
            a.plan.combatants[i].label,
            (costs[i], elo[i]),
            textcoords="offset points",
            xytext=offset,
            ha=align,
            fontsize=8,
        )
    xs = np.geomspace(costs.min() * 0.8, costs.max() * 1.25, 100)
    ys = ELO_ORIGIN + ELO_PER_LOGIT * (line.intercept + line.slope * np.log(xs) - mean_theta)
    ax.plot(xs, ys, color="#d8793b", linestyle="--", label="price line (all combatants)")
    _plain_log_axis(ax)
    ax.set_xlabel("cost (SP, log scale)")
    ax.set_ylabel("rating (Elo scale)")
    ax.set_title("Points efficiency: above the line is stronger than its cost")
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    return _png(fig)


def fair_cost_png(a: Assessment) -> bytes | None:
    """Fair cost with its 95% interval beside the actual cost, per combatant."""
    rows = [
        (
            c.label,
            fv.cost,
            fv.fair_cost,
            math.nan if fv.fair_low is None else fv.fair_low,
            math.nan if fv.fair_high is None else fv.fair_high,
        )
        for c, fv in zip(a.plan.combatants, a.fair.values, strict=True)
        if fv.fair_cost is not None
    ]
    if not rows:
        return None
    rows.sort(key=lambda r: r[1])
    k = len(rows)
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.42 * k + 1.2)), dpi=DPI)
    ys = np.arange(k)
    bounded = [n for n, r in enumerate(rows) if not math.isnan(r[3])]
    open_ = [n for n in range(k) if n not in bounded]
    if bounded:
        fair = np.array([rows[n][2] for n in bounded], dtype=float)
        err = np.array(
            [
                [rows[n][2] - rows[n][3] for n in bounded],
                [rows[n][4] - rows[n][2] for n in bounded],
            ],
            dtype=float,
        )
        ax.errorbar(
            fair,
            ys[bounded],
            xerr=err,
            fmt="o",
            color="#2e7d32",
            ecolor="#66bb6a",
            capsize=4,
            label="fair cost, 95% interval",
        )
    if open_:
        ax.scatter(
            [rows[n][2] for n in open_],
            ys[open_],
            marker="o",
            facecolors="none",
            edgecolors="#2e7d32",
            label="fair cost, no bounded interval",
        )
    ax.scatter([r[1] for r in rows], ys, marker="x", s=60, color="#b22222", label="actual cost")
    ax.set_yticks(ys, labels=[r[0] for r in rows])
    _plain_log_axis(ax)
    ax.set_xlabel("SP (log scale)")
    ax.set_title("Fair value: the cost that puts each combatant on the others' price line")
    ax.legend(loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def _plain_log_axis(ax: Axes) -> None:
    """A log x axis labelled 20, 50, 100 rather than 2 x 10^1."""
    ax.set_xscale("log")
    plain = FuncFormatter(lambda v, _pos: f"{v:g}")
    ax.xaxis.set_major_formatter(plain)
    ax.xaxis.set_minor_formatter(
        FuncFormatter(lambda v, _pos: f"{v:g}" if _leading(v) in (2, 3, 5) else "")
    )


def _leading(v: float) -> int:
    return int(f"{v:e}"[0]) if v > 0 else 0


def _img(data: bytes | None, alt: str) -> str:
    if data is None:
        return ""
    encoded = base64.b64encode(data).decode("ascii")
    return f'<figure><img alt="{html.escape(alt)}" src="data:image/png;base64,{encoded}"></figure>'


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{x * 100:.1f}%"


def _num(x: float | None, digits: int = 0) -> str:
    return "-" if x is None or math.isnan(x) else f"{x:.{digits}f}"


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; color: #222;
       padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-size: 0.9rem; }
th, td { border: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: right; }
th { background: #f3f5f8; } td.l, th.l { text-align: left; }
figure { margin: 1rem 0; } img { max-width: 100%; height: auto; }
.note { color: #555; font-size: 0.9rem; } .under { color: #2e7d32; } .over { color: #b22222; }
"""


def _fair_value_parts(a: Assessment, fv: dict[str, Any]) -> list[str]:
    """The report's fair values: the pictures and table, or why there are none."""
    esc = html.escape
    parts = ["<h2>Points efficiency and fair values</h2>"]
    if fv["price_line"] is None:
        parts.append(f"<p class='note'>No fair values: {esc(fv['note'])}.</p>")
    else:
        parts += [
            _img(fair_value_png(a), "rating against cost with the price line"),
            _img(fair_cost_png(a), "fair cost with intervals"),
            "<table><tr><th class='l'>Combatant</th><th>Cost</th><th>Fair cost</th>"
            "<th>95% interval</th><th>If linear</th><th>P(underpriced)</th>"
            "<th class='l'>Verdict</th><th class='l'>More battles</th>"
            "<th class='l'>By captain</th></tr>",
        ]
        for row in fv["combatants"]:
            verdict = row["verdict"]
            cls = "under" if verdict == "underpriced" else "over" if verdict == "overpriced" else ""
            interval = row["fair_cost_95"]
            span = "-" if interval is None else f"{interval[0]:.0f} to {interval[1]:.0f}"
            flags = row.get("marks") or []
            shown = verdict + (f" ({', '.join(flags)})" if flags else "")
            by = row.get("by_captain") or ""
            parts.append(
                f"<tr><td class='l'>{esc(row['combatant'])}</td><td>{row['cost']}</td>"
                f"<td>{_num(row['fair_cost'])}</td>"
                f"<td>{span}</td><td>{_num(row.get('fair_cost_if_linear'))}</td>"
                f"<td>{_num(row['p_underpriced'], 2)}</td>"
                f"<td class='l {cls}'>{esc(shown)}</td>"
                f"<td class='l'>{esc(row.get('more_battles') or '-')}</td>"
                f"<td class='l'>{esc(by or '-')}</td></tr>"
            )
        parts.append(
            "</table><p class='note'>Fair cost: the SP cost at which the price line fitted on the "
            "other combatants (rating = a + b ln cost) reaches this one's rating. The interval: "
            "the costs at which its rating lies inside the line's 95% prediction interval (the "
            "line's estimation error, the others' scatter about it with a Student t quantile, "
            "and its own rating's uncertainty, widened by the fit's dispersion); P(underpriced): "
            "the predictive chance that a fairly priced class of its cost rates lower. "
            "A verdict needs "
            "the interval: wholly above or below the cost, or within 80% to 125% of it for "
            "'about right'; otherwise 'can't tell'. 'If linear': the fair cost under a line "
            f"linear in cost. Verdicts rest on {esc(fv.get('rests_on') or '')}. "
            f"{esc(MARKS)} See docs/assessment.md.</p>"
        )
    return parts


def render_html(a: Assessment, extra: dict[str, Any] | None = None) -> str:
    """The whole report as one HTML page with its pictures embedded."""
    data = a.to_json()
    s = data["settings"]
    names = [c.label for c in a.plan.combatants]
    esc = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Kolrami assessment: {esc(s['scenario'])}</title><style>{_STYLE}</style></head>",
        "<body>",
        f"<h1>Kolrami assessment: {len(names)} combatants, scenario {esc(s['scenario'])}</h1>",
        "<p class='note'>"
        f"{s['battles']} battles ({s['battles_per_matchup']} per matchup), captains "
        f"{esc(', '.join(s['captains']))} (every ordered pair, sides alternating), master seed "
        f"{s['seed']}, rules {esc(s['rules_version'])}, data {esc(s['data_version'])}"
        + (f", extra rules {esc(', '.join(s['extra_rules']))}" if s["extra_rules"] else "")
        + f". Made {datetime.now(UTC):%Y-%m-%d %H:%M} UTC."
        + (f" {esc(str(extra['timing']))}" if extra and "timing" in extra else "")
        + "</p>",
        "<h2>Win rates</h2>",
        _img(heatmap_png(a), "win-rate heatmap"),
        "<h2>Ratings</h2>",
        _img(ratings_png(a), "ratings with 95% intervals"),
        "<table><tr><th>#</th><th class='l'>Combatant</th><th>Cost SP</th><th>Rating</th>"
        "<th>95% interval</th></tr>",
    ]
    for r in data["ratings"]:
        lo, hi = r["rating_95"]
        cost = a.plan.combatants[names.index(r["combatant"])].cost
        parts.append(
            f"<tr><td>{r['rank']}</td><td class='l'>{esc(r['combatant'])}</td><td>{cost}</td>"
            f"<td>{r['rating']:.0f}</td><td>{lo:.0f} to {hi:.0f}</td></tr>"
        )
    parts.append("</table>")
    fit = data.get("ratings_fit")
    if fit is not None and fit["df"] > 0:
        parts.append(
            f"<p class='note'>Fit of the ratings: deviance {fit['deviance']:.1f}, Pearson's "
            f"statistic {fit['pearson']:.1f}, on {fit['df']} degrees of freedom "
            f"({fit['deviance_per_df']:.2f} and {fit['pearson'] / fit['df']:.2f} per degree; "
            f"about 1 when the model holds): {esc(fit['verdict'])}. The intervals carry the "
            f"dispersion (variance x{fit['dispersion']:.2f}).</p>"
        )
    parts += _fair_value_parts(a, data["fair_values"])
    parts += [
        "<h2>Matchups</h2>",
        "<table><tr><th class='l'>Combatant</th><th class='l'>Opponent</th><th>Battles</th>"
        "<th>W-D-L</th><th>Score</th><th>95% interval</th><th>Mean margin</th>"
        + ("<th>Mean Fleet Points</th><th>Roll-offs won</th>" if a.plan.simulating else "")
        + "</tr>",
    ]
    for m in data["matchups"]:
        lo, hi = m["score_95"]
        fp = m["mean_fleet_points"]
        parts.append(
            f"<tr><td class='l'>{esc(m['x'])}</td><td class='l'>{esc(m['y'])}</td>"
            f"<td>{m['battles']}</td><td>{m['wins']}-{m['draws']}-{m['losses']}</td>"
            f"<td>{_pct(m['score'])}</td><td>{_pct(lo)} to {_pct(hi)}</td>"
            f"<td>{m['mean_margin']:+.1f} &plusmn; {1.96 * m['margin_se']:.1f}</td>"
            + (f"<td>{fp[0]:.1f} : {fp[1]:.1f}</td>" if fp else "")
            + (
                f"<td>{m['rolloffs']['x_won']} : {m['rolloffs']['y_won']}</td>"
                if a.plan.simulating
                else ""
            )
            + "</tr>"
        )
    parts.append(
        "</table><p class='note'>Score: wins plus half the draws, from the first combatant's "
        "side, with a 95% Wilson interval. Margin: "
        + (
            "Fleet Points scored minus conceded"
            if a.plan.simulating
            else "enemy points destroyed minus own points lost"
        )
        + ", mean with a 95% normal interval.</p></body></html>"
    )
    return "\n".join(p for p in parts if p)


def write_report(a: Assessment, out: Path, extra: dict[str, Any] | None = None) -> None:
    """Write the HTML report to `out` (an .html file in an existing folder)."""
    if out.suffix.lower() not in (".html", ".htm"):
        raise InvalidInputError(f"--report '{quoted(out)}' must end in .html")
    if not out.parent.exists():
        raise InvalidInputError(
            f"cannot write --report '{quoted(out)}': folder '{quoted(out.parent)}' does not exist"
        )
    try:
        out.write_text(render_html(a, extra), encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(f"cannot write --report '{quoted(out)}': {exc.strerror}") from None


# --- the designer's questions: --vary and --even (kolrami.sim.design) ------------------------


def _scores(points: list[dict[str, Any]], x: str) -> tuple[npt.NDArray[np.float64], ...]:
    """A sweep's points as arrays to plot: the value swept (`x`), the score and its 95%
    interval's ends, in percent."""
    xs = np.array([p[x] for p in points], dtype=float)
    ys = np.array([p["score"] for p in points], dtype=float) * 100
    lo = np.array([p["score_95"][0] for p in points], dtype=float) * 100
    hi = np.array([p["score_95"][1] for p in points], dtype=float) * 100
    return xs, ys, lo, hi


def vary_png(data: dict[str, Any]) -> bytes:
    """Score against the field at each value of the stat, with 95% intervals; the printed
    value marked, one half drawn as the even line."""
    pts = data["points"]
    xs, ys, lo, hi = _scores(pts, "value")
    fig, ax = plt.subplots(figsize=(8, 5), dpi=DPI)
    ax.fill_between(xs, lo, hi, color="#3b7dd8", alpha=0.18, label="95% interval")
    ax.errorbar(
        xs, ys, yerr=[ys - lo, hi - ys], fmt="o-", color="#1d3f6e", ecolor="#3b7dd8", capsize=3
    )
    for p, y in zip(pts, ys, strict=True):
        if p["printed"]:
            ax.scatter([p["value"]], [y], s=160, facecolors="none", edgecolors="#d8793b", lw=2)
            ax.annotate(
                f"printed ({p['value']})",
                (p["value"], y),
                textcoords="offset points",
                xytext=(8, -14),
                fontsize=9,
                color="#a0521d",
            )
    ax.axhline(50, color="#888888", linestyle="--", lw=1, label="even (50%)")
    ax.set_xticks(xs)
    ax.set_ylim(max(0.0, float(lo.min()) - 8), min(100.0, float(hi.max()) + 8))
    ax.set_xlabel(data["stat"])
    ax.set_ylabel("score against the field (%)")
    ax.set_title(f"{data['class']}: score against the field by {data['stat']}")
    ax.legend(loc="best")
    ax.grid(alpha=0.3)
    return _png(fig)


def even_png(data: dict[str, Any]) -> bytes:
    """Score against the field at equal points by the cost tried; the even cost and its
    interval, and the printed cost."""
    steps = data["steps"]
    xs, ys, lo, hi = _scores(steps, "cost")
    fig, ax = plt.subplots(figsize=(8, 5), dpi=DPI)
    ax.errorbar(
        xs,
        ys,
        yerr=[ys - lo, hi - ys],
        fmt="o-",
        color="#1d3f6e",
        ecolor="#3b7dd8",
        capsize=3,
        label="score at the cost tried, 95% interval",
    )
    ax.axhline(50, color="#888888", linestyle="--", lw=1)
    if data["even_cost_95"] is not None:
        a, b = data["even_cost_95"]
        ax.axvspan(a, b, color="#66bb6a", alpha=0.2, label="even cost, 95% interval")
    if data["even_cost"] is not None:
        ax.axvline(
            data["even_cost"], color="#2e7d32", lw=2, label=f"even: {data['even_cost']:.0f} SP"
        )
    ax.axvline(
        data["printed_cost"],
        color="#b22222",
        linestyle=":",
        lw=2,
        label=f"printed: {data['printed_cost']} SP",
    )
    # a linear axis: the costs tried span a factor of a few, and its ticks read plainly
    left = min(float(xs.min()), float(data["printed_cost"]))
    right = max(float(xs.max()), float(data["printed_cost"]))
    pad = 0.06 * (right - left or 1.0)
    ax.set_xlim(left - pad, right + pad)
    ax.set_ylim(max(0.0, float(lo.min()) - 10), min(100.0, float(hi.max()) + 10))
    ax.set_xlabel("cost of the class tried (SP)")
    ax.set_ylabel("score against the field at equal points (%)")
    ax.set_title(f"{data['class']}: the cost at which it wins half")
    ax.legend(loc="best", fontsize=8)
    ax.grid(alpha=0.3)
    return _png(fig)


def _page(title: str, body: list[str]) -> str:
    esc = html.escape
    return "".join(
        [
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
            "<meta name='viewport' content='width=device-width, initial-scale=1'>",
            f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>",
            f"<h1>{esc(title)}</h1>",
            *body,
            f"<p class='note'>Made {datetime.now(UTC):%Y-%m-%d %H:%M} UTC. See "
            'docs/assessment.md, "The designer\'s questions".</p></body></html>',
        ]
    )


def render_vary_html(data: dict[str, Any]) -> str:
    """The --vary report: the picture, then the table."""
    esc = html.escape
    rows = "".join(
        f"<tr><td>{p['value']}{' (printed)' if p['printed'] else ''}</td><td>{p['battles']}</td>"
        f"<td>{_pct(p['score'])}</td><td>{_pct(p['score_95'][0])} to {_pct(p['score_95'][1])}"
        "</td></tr>"
        for p in data["points"]
    )
    body = [
        _img(vary_png(data), f"score against the field by {data['stat']}"),
        f"<table><tr><th>{esc(data['stat'])}</th><th>Battles</th><th>Score</th>"
        f"<th>95% interval</th></tr>{rows}</table>",
        "<p class='note'>Each value is the class with that one number changed, played "
        f"{data['battles_per_matchup']} battles against each of {esc(', '.join(data['field']))}. "
        "Score: wins plus half the draws over all those battles; 95% Wilson interval.</p>",
    ]
    return _page(f"{data['class']}: what {data['stat']} does to its balance", body)


def render_even_html(data: dict[str, Any]) -> str:
    """The --even report: the picture, the answer, the costs tried."""
    esc = html.escape
    span = data["even_cost_95"]
    if data["even_cost"] is None:
        answer = f"No even cost found: {esc(data['note'])}."
    else:
        answer = (
            f"{esc(data['class'])} would be even with the field at about "
            f"{data['even_cost']:.0f} SP (printed {data['printed_cost']} SP); 95% interval "
            + ("-" if span is None else f"{span[0]:.0f} to {span[1]:.0f} SP")
            + (f" ({esc(data['note'])})" if data["note"] else "")
            + "."
        )
    rows = "".join(
        f"<tr><td>{s['cost']:.0f}</td><td>{s['battles']}</td><td>{_pct(s['score'])}</td>"
        f"<td>{_pct(s['score_95'][0])} to {_pct(s['score_95'][1])}</td></tr>"
        for s in data["steps"]
    )
    body = [
        f"<p><b>{answer}</b></p>",
        _img(even_png(data), "score at equal points by cost, with the even cost"),
        f"<table><tr><th>Cost SP</th><th>Battles</th><th>Score</th><th>95% interval</th></tr>"
        f"{rows}</table>",
        "<p class='note'>Each opponent class is fielded at about "
        f"{data['points']} SP ({esc(', '.join(data['field']))}) and meets as many copies of the "
        "class as its points buy at the cost tried, the count interpolated between the two "
        "whole numbers around it. The search brackets the cost at which the score crosses one "
        "half, then halves the bracket in log cost. Interval: from the dearest cost tried "
        "surely above one half to the cheapest surely below.</p>",
    ]
    return _page(f"{data['class']}: the cost at which it is even", body)


def _write(text: str, out: Path) -> None:
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(f"cannot write --report '{quoted(out)}': {exc.strerror}") from None


def write_vary_report(data: dict[str, Any], out: Path) -> None:
    """Write the --vary report to `out`."""
    _write(render_vary_html(data), out)


def write_even_report(data: dict[str, Any], out: Path) -> None:
    """Write the --even report to `out`."""
    _write(render_even_html(data), out)
