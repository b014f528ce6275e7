"""The board's charts, drawn as SVG text by one small module (docs/decisions.md, "One chart
stack"): :mod:`kniffel.charts.draw` draws lines and histograms, :mod:`kniffel.charts.scale`
places values; the game charts (:mod:`kniffel.charts.totals`, :mod:`kniffel.charts.chances`)
turn a game's figures into lines."""
