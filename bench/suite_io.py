"""What the Python bench tools share about suite files (the format is crates/wgconv/src/suite.rs's):
reading one, picking models, summing a model's layers, and printing their reports."""
import json
import math


def load_suite(path, models=None):
    """The layers of the suite file at `path` (an array, or `{"about": ..., "layers": [...]}`), only
    those of `models` (comma-separated names) when given. Raises ValueError naming a model the suite
    does not have."""
    with open(path) as file:
        suite = json.load(file)
    if isinstance(suite, dict):
        suite = suite["layers"]
    if models:
        wanted = models.split(",")
        missing = sorted(set(wanted) - {layer.get("model") for layer in suite})
        if missing:
            raise ValueError(f"--models: the suite has no model {', '.join(missing)}")
        suite = [layer for layer in suite if layer.get("model") in wanted]
    return suite


def model_totals(suite, times):
    """{model: Σ layer ms × count} over the layers in `times` that name a model, in order of
    appearance."""
    totals = {}
    for layer in suite:
        if "model" in layer and layer["name"] in times:
            totals[layer["model"]] = totals.get(layer["model"], 0.0) + times[layer["name"]] * layer.get("count", 1)
    return totals


def geomean(values):
    """Geometric mean of the positive values (NaN for none)."""
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def report(text, markdown=None):
    """Prints a report, and writes it to the file `markdown` too when given."""
    print(text)
    if markdown:
        with open(markdown, "w") as file:
            file.write(text + "\n")
