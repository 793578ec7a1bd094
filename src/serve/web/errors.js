// Errors are kept where a test (or a curious person) can read them. The page
// imports this module first, so that it sees the others' errors too.

window.__owareErrors = [];
window.addEventListener("error", (e) => window.__owareErrors.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.__owareErrors.push(String(e.reason)));
