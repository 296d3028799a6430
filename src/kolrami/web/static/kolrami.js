// Kolrami's own few lines of script (htmx does the rest).
//
// A refused htmx request (the records busy, the login ended, the form expired) is answered with
// one line for the form's message area and the session's current CSRF token in X-CSRF-Token.
// The form stays on the screen with what was typed; taking the token lets it be sent again
// without reloading the page (a reload would lose what was typed).
document.addEventListener("htmx:after:request", (event) => {
  const headers = event.detail?.ctx?.response?.headers;
  const token = headers?.get ? headers.get("X-CSRF-Token") : null;
  if (!token) return;
  document.body.setAttribute("hx-headers:inherited", JSON.stringify({ "X-CSRF-Token": token }));
  for (const input of document.querySelectorAll('input[name="csrf_token"]')) input.value = token;
});
// A new answer clears the line a refusal left (the card itself is swapped on success).
document.addEventListener("htmx:before:request", (event) => {
  const target = event.detail?.ctx?.target;
  const area = target?.id ? document.getElementById(target.id + "-message") : null;
  if (area) area.textContent = "";
});
