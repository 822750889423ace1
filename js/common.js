// Shared front-end helpers of the mtwidgets widgets. anywidget loads each widget module from a
// string, so this file is not imported: a widget module includes it with the line
//   // @include common.js
// which mtwidgets/widgets/_assets.py (esm) replaces by this file's text. Plain declarations
// only (no import/export). User text only ever goes through textContent, never innerHTML.

// h(tag, attrs, children) builds one DOM element.
//   attrs: {class, text, on<event>: fn, name: value, ...}; undefined/null/false skip the
//          attribute, true sets it empty. A string (or null) instead is the class name.
//   children: nodes (falsy ones skipped), or a string/number: the element's text.
// So both h("div", {class: "a", text: "x"}, [child]) and h("div", "a", "x") work.
function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  if (attrs === null || attrs === undefined || typeof attrs === "string") {
    if (attrs) node.className = attrs;
    attrs = {};
  }
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  if (children === null || children === undefined) return node;
  if (!Array.isArray(children)) {
    node.textContent = String(children);
    return node;
  }
  for (const child of children) if (child) node.append(child);
  return node;
}
