"""``ragscore report --estimate ppi`` written out: people's figures beside the estimates,
each labelled as what it is."""
import json

__all__ = ["estimate_json", "estimate_text"]


def _interval(estimate, digits):
    if estimate.mean is None:
        return f"n/a ({estimate.reason})"
    return (f"{estimate.mean:.{digits}f} [{estimate.low:.{digits}f}, "
            f"{estimate.high:.{digits}f}]")


def estimate_text(result, display):
    """One block per system and metric: people's mean so far, the sample's estimate and
    the prediction-powered estimate, each with its interval and counts."""
    digits = display.digits if display.digits is not None else 4
    share = f"{round(result.share * 100, 6):g}%"
    level = f"{round(result.confidence * 100, 6):g}%"
    lines = [f"Estimates at k={result.k}, not measurements: people judged the audit sample "
             f"({len(result.sample)} question{'s' * (len(result.sample) != 1)}, each drawn "
             f"with probability {share}, seed {result.seed}), a judge drafted every answer; "
             f"{level} intervals."]
    for row in result.rows:
        people = ("n/a" if row.people is None else f"{row.people:.{digits}f}")
        lines.append(f"{row.system} {row.metric}:")
        lines.append(f"  people's judgements so far: {people} over {row.people_used} "
                     f"answer{'s' * (row.people_used != 1)} (not a random sample)")
        lines.append(f"  people's audit sample: {_interval(row.sample, digits)}, "
                     f"{row.sample.sample} answers")
        lines.append(f"  estimate (prediction-powered): {_interval(row.ppi, digits)}, "
                     f"{row.ppi.rest} drafted + {row.ppi.sample} audited answers")
        if row.note:
            lines.append(f"  note: {row.note}")
    return "\n".join(lines) + "\n"


def _estimate(estimate):
    return {"mean": estimate.mean, "low": estimate.low, "high": estimate.high,
            "sample": estimate.sample, "rest": estimate.rest, "reason": estimate.reason}


def estimate_json(result, display):
    """The estimates as JSON (null where n/a, with the reason)."""
    return json.dumps({
        "k": result.k, "audit_sample": list(result.sample), "audit_share": result.share,
        "seed": result.seed, "confidence": result.confidence, "estimate": "ppi",
        "rows": [{"system": row.system, "metric": row.metric, "people": row.people,
                  "people_used": row.people_used, "sample": _estimate(row.sample),
                  "ppi": _estimate(row.ppi), "note": row.note} for row in result.rows]},
        ensure_ascii=False, indent=2) + "\n"
