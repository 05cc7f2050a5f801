// Starts the API reference at /docs from the bundled Scalar renderer (no CDN, no inline script).
// The page's CSP forbids inline script, so the configuration travels in a data attribute.
(() => {
  var mount = document.getElementById("api-reference");
  var configuration = JSON.parse(mount.getAttribute("data-configuration"));
  window.Scalar.createApiReference(mount, configuration);
})();
