// Draws the "calls per day" chart from the JSON island the usage pages render:
// {"days": ["YYYY-MM-DD", …], "series": [{"skill": "...", "counts": [n, …]}, …]}
// as stacked bars, one colour per skill. Needs uPlot (loaded before this file).
(() => {
  var COLORS = ["#1f6feb", "#2da44e", "#bf8700", "#cf222e", "#8250df", "#1b7c83", "#d1242f", "#6e7781", "#fb8500"];

  // A skill keeps its colour whatever else was called this month: picked from its name, not its place.
  function colourOf(skill) {
    var hash = 0;
    for (let i = 0; i < skill.length; i++) hash = (hash * 31 + skill.charCodeAt(i)) >>> 0;
    return skill.startsWith("refused") ? "#6e7781" : COLORS[hash % COLORS.length];
  }
  var totalOf = (counts) => counts.reduce((sum, n) => sum + n, 0);

  function draw(container) {
    var island = document.getElementById(container.getAttribute("data-island"));
    if (!island || typeof uPlot === "undefined") return;
    var data = JSON.parse(island.textContent);
    var xs = data.days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);

    // Stack: series i is drawn from 0 up to the sum of series 0..i; drawing the tallest first
    // leaves each skill's own band visible. The legend shows each skill's own count.
    var running = xs.map(() => 0);
    var stacked = data.series.map((s) => {
      running = running.map((sum, i) => sum + s.counts[i]);
      return running.slice();
    });
    var order = data.series.map((_, i) => i).reverse();

    var bars = uPlot.paths.bars({ size: [0.7, 40] });
    var dayOf = uPlot.fmtDate("{YYYY}-{MM}-{DD}");
    var opts = {
      width: container.clientWidth,
      height: 260,
      scales: { x: { time: true }, y: { range: [0, null] } },
      axes: [{}, { size: 44, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] }],
      legend: { live: true },
      cursor: { points: { show: false } },
      // Off the chart the legend reads "Day: this month" beside each skill's month total, not uPlot's "--".
      series: [{ label: "Day", value: (_u, v) => (v == null ? "this month" : dayOf(new Date(v * 1000))) }].concat(
        order.map((index) => {
          var color = colourOf(data.series[index].skill);
          return {
            label: data.series[index].skill,
            stroke: color,
            fill: color,
            width: 0,
            paths: bars,
            points: { show: false },
            // Hovering a day shows that day's count; otherwise the month's total, never a placeholder.
            value: (_u, _v, _seriesIndex, idx) =>
              idx == null ? totalOf(data.series[index].counts) : data.series[index].counts[idx],
          };
        }),
      ),
    };
    container.textContent = "";
    var chart = new uPlot(opts, [xs].concat(order.map((index) => stacked[index])), container);
    window.addEventListener("resize", () => {
      chart.setSize({ width: container.clientWidth, height: 260 });
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("[data-island]").forEach(draw);
  });
})();
