// Draws the price-a-lane page's charts from its JSON islands (needs uPlot, loaded before this file):
// - lane-history: [{as_of, rate_per_mile, total_cost}, …] as a line of cost per mile by month;
// - lane-forecast: [{date, p50, interval_80: {lower, upper}, interval_95: {lower, upper}}, …] as the
//   median with its 80 % and 95 % bands.
// Also wires the "Print rate confirmation" button (no inline script under the page's CSP).
(() => {
  var seconds = (date) => Date.parse(`${date}T00:00:00Z`) / 1000;
  var usd = (_u, v) => (v == null ? "—" : `$${v.toFixed(2)}`);

  function chart(container, series, data, bands) {
    if (typeof uPlot === "undefined") return;
    var opts = {
      width: container.clientWidth,
      height: 240,
      scales: { x: { time: true } },
      axes: [{}, { size: 56, values: (_u, vals) => vals.map((v) => `$${v.toFixed(2)}`) }],
      series: [{ value: "{YYYY}-{MM}-{DD}" }].concat(series),
      bands: bands || [],
      legend: { live: false },
    };
    container.textContent = "";
    var plot = new uPlot(opts, data, container);
    window.addEventListener("resize", () => plot.setSize({ width: container.clientWidth, height: 240 }));
  }

  var band = (label, colour) => ({ label: label, stroke: colour, width: 1, value: usd });

  function island(id) {
    var element = document.getElementById(id);
    return element ? JSON.parse(element.textContent) : null;
  }

  document.addEventListener("DOMContentLoaded", () => {
    var history = island("lane-history");
    var historyChart = document.getElementById("lane-history-chart");
    if (history && historyChart && history.length > 0) {
      chart(
        historyChart,
        [{ label: "Cost per mile", stroke: "#1f6feb", width: 2, value: usd, points: { show: true } }],
        [history.map((p) => seconds(p.as_of)), history.map((p) => p.rate_per_mile)],
      );
    }
    var forecast = island("lane-forecast");
    var forecastChart = document.getElementById("lane-forecast-chart");
    if (forecast && forecastChart && forecast.length > 0) {
      chart(
        forecastChart,
        [
          band("95 % upper", "#b6c6e3"),
          band("80 % upper", "#7f9cd0"),
          { label: "Median", stroke: "#1f4e79", width: 2, value: usd },
          band("80 % lower", "#7f9cd0"),
          band("95 % lower", "#b6c6e3"),
        ],
        [
          forecast.map((p) => seconds(p.date)),
          forecast.map((p) => p.interval_95.upper),
          forecast.map((p) => p.interval_80.upper),
          forecast.map((p) => p.p50),
          forecast.map((p) => p.interval_80.lower),
          forecast.map((p) => p.interval_95.lower),
        ],
        [
          { series: [1, 5], fill: "rgba(31, 111, 235, 0.08)" },
          { series: [2, 4], fill: "rgba(31, 111, 235, 0.16)" },
        ],
      );
    }
    var print = document.getElementById("print-confirmation");
    if (print) print.addEventListener("click", () => window.print());
  });
})();
