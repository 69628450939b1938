// The page's two DOM helpers: an element by id, and an error line shown or hidden.

export const $ = (id) => document.getElementById(id);

export function showError(element, message) {
  element.textContent = message || "";
  element.hidden = !message;
}

// A click handler's stand-in for an event that needs no default prevented.
export const NO_EVENT = { preventDefault() {} };

// Shows one view (its tab selected), hides the others.
export function showView(name) {
  for (const tab of document.querySelectorAll("nav [role=tab]")) {
    const on = tab.dataset.view === name;
    tab.setAttribute("aria-selected", String(on));
    $(`view-${tab.dataset.view}`).hidden = !on;
  }
}
