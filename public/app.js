// Progressive enhancement for the dashboard: the copy button for a freshly created key.
// Delegated from document so it also works on fragments htmx swaps in later.
(() => {
  function revealCopyButtons(root) {
    if (!navigator.clipboard) return;
    root.querySelectorAll("[data-copy-from]").forEach((button) => {
      button.hidden = false;
    });
  }

  document.addEventListener("click", (event) => {
    var button = event.target instanceof Element ? event.target.closest("[data-copy-from]") : null;
    if (!button) return;
    var source = document.querySelector(button.getAttribute("data-copy-from"));
    if (!source) return;
    navigator.clipboard.writeText(source.textContent.trim()).then(
      () => {
        button.textContent = "Copied";
      },
      () => {
        button.textContent = "Select and copy";
      },
    );
  });

  document.addEventListener("DOMContentLoaded", () => {
    revealCopyButtons(document);
  });
  document.addEventListener("htmx:after:swap", () => {
    revealCopyButtons(document);
  });
})();
