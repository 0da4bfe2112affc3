# SPDX-License-Identifier: MIT
"""chameleon: render chameleon.c's rows x cols table as an HTML page with the
Chameleon page-template engine FunctionBench's function uses (Debian
python3-chameleon): a PageTemplate compiled at init, rendered per call.

The cells come from `cvmfn prepare chameleon` (table: tab-separated lines),
or --input (the same format). Bytes pass through as Latin-1 both ways, so
any input renders and the page's bytes are its cells' bytes. Chameleon
escapes text its own way (' stays as it is), so the digest (the page) is
not the C one's; the check is a property: the page parsed as HTML gives
the same title and the same table of cell texts (docs/workloads.md).
"""
import inputs

REQUIRES = [("chameleon", "python3-chameleon")]
IMPORTS = ["chameleon"]
TITLE = "rows & cols"
TEMPLATE = """<!DOCTYPE html>
<html><head><title>${title}</title></head>
<body>
<table>
<tr tal:repeat="row rows"><td tal:repeat="cell row">${cell}</td></tr>
</table>
</body></html>
"""


class Function:
    threads = 1

    def __init__(self, params):
        from chameleon import PageTemplate
        self.template = PageTemplate(TEMPLATE)
        if params.input:
            with open(params.input, "rb") as f:
                text = f.read()
        else:
            text = inputs.read(params, "chameleon", "table")
        lines = text.decode("latin-1").rstrip("\n").split("\n")
        self.rows = [line.rstrip("\r").split("\t") for line in lines]
        self.cells = sum(len(row) for row in self.rows)
        self.output, self.summary = params.output, ""

    def invoke(self, out):
        html = self.template(title=TITLE, rows=self.rows).encode("latin-1")
        out.ref(html)
        self.summary = "rendered %d rows, %d cells, %d bytes of HTML (Chameleon)" % (
            len(self.rows), self.cells, len(html))
        if self.output:
            out.file(self.output, html)
