// The door in a browser: an xterm.js terminal wired to the door's WebSocket.
// Binary frames carry bytes both ways (keys and pastes up, the screen down, UTF-8);
// text frames up are JSON control messages: {"cols": 80, "rows": 24} on every resize;
// text frames down are the keys the screen offers, after the picture that offers them:
// {"keys": [{"label": "RETURN", "words": "RETURN throw", "send": "\r"}, ...]}.
// On a touch screen the page shows those keys as buttons (index.html's #keys: a first
// row until the door says), which a soft keyboard lacks, keeps the soft keyboard shut
// until the caller asks for it, and lets a tap on the terminal be a click (xterm.js
// reports it once the door asks for mouse reports).
import { Terminal } from "./xterm.mjs";
import { FitAddon } from "./addon-fit.mjs";

const MIN_COLS = 80;
const MIN_ROWS = 24;

const term = new Terminal({
  fontFamily: '"DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace',
  fontSize: 16,
  scrollback: 0,
  cursorBlink: false,
  allowProposedApi: false,
  theme: { background: "#000000", foreground: "#c0c0c0" },
});
const fit = new FitAddon();
term.loadAddon(fit);
term.open(document.getElementById("screen"));
window.door = { term }; // the page's tests read the screen from here

// A reading size, or the largest font below it at which 80x24 fits the window; the
// terminal then fills the window, so a larger window gets more columns and rows (at
// 1800x1000 about 166x47, where the door shows the game log beside the game), not a
// larger font, and never fewer than 80x24.
const READING_FONT = 18;
const SMALLEST_FONT = 6;

const touch = matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;
const keys = document.getElementById("keys");
const turn = document.getElementById("turn");

function layOutForTouch() {
  if (!touch) return;
  const portrait = window.innerHeight > window.innerWidth;
  document.body.classList.toggle("portrait", portrait);
  const style = document.body.style;
  style.setProperty("--keys-height", `${keys.offsetHeight}px`);
  style.setProperty("--keys-width", `${keys.offsetWidth}px`);
  style.setProperty("--turn-height", portrait ? `${turn.offsetHeight}px` : "0px");
}

function fitToWindow() {
  layOutForTouch();
  let size = READING_FONT;
  for (; size > SMALLEST_FONT; size -= 1) {
    term.options.fontSize = size;
    const proposed = fit.proposeDimensions();
    if (proposed && proposed.cols >= MIN_COLS && proposed.rows >= MIN_ROWS) break;
  }
  term.options.fontSize = size;
  const proposed = fit.proposeDimensions();
  if (proposed) {
    term.resize(Math.max(MIN_COLS, proposed.cols), Math.max(MIN_ROWS, proposed.rows));
  }
}

const scheme = location.protocol === "https:" ? "wss:" : "ws:";
const socket = new WebSocket(
  `${scheme}//${location.host}${location.pathname.replace(/[^/]*$/, "")}ws${touch ? "?touch=1" : ""}`,
);
socket.binaryType = "arraybuffer";
const encoder = new TextEncoder();

function sendSize() {
  if (socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ cols: term.cols, rows: term.rows }));
  }
}

socket.addEventListener("open", sendSize);
socket.addEventListener("message", (event) => {
  if (event.data instanceof ArrayBuffer) {
    term.write(new Uint8Array(event.data));
  } else if (touch) {
    showOffers(event.data);
  }
});
socket.addEventListener("close", () => {
  term.write("\r\n\x1b[0m[The door has closed the connection. Reload the page to call again.]\r\n");
  window.door.closed = true;
});
function send(data) {
  if (socket.readyState === WebSocket.OPEN) socket.send(encoder.encode(data));
}

term.onData(send);
term.onResize(sendSize);

// The keys' bytes are written in index.html as escapes (\r, \x1b) so the page reads.
function unescape(text) {
  return text.replace(/\\r/g, "\r").replace(/\\x1b/g, "\x1b");
}

// How a key bar's names show on a button (the arrows as arrows).
const SHOWN = { "<-": "\u2190", "->": "\u2192" };

// The row of buttons made again from the keys the screen offers: each sends what its
// key does, and a screen reader says the offer's words ("RETURN throw"). The keyboard
// key stays last. The row keeps its height (two rows of buttons upright), so the
// terminal is not resized at every screen.
function showOffers(text) {
  let offers;
  try {
    offers = JSON.parse(text).keys;
  } catch {
    return;
  }
  if (!Array.isArray(offers)) return;
  const typing = document.getElementById("keyboard");
  const height = keys.offsetHeight;
  for (const button of keys.querySelectorAll("button[data-send]")) button.remove();
  for (const offer of offers) {
    if (typeof offer.send !== "string" || typeof offer.label !== "string") continue;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.send = offer.send.replace(/\r/g, "\\r").replace(/\x1b/g, "\\x1b");
    button.textContent = SHOWN[offer.label] || offer.label;
    button.setAttribute("aria-label", String(offer.words || offer.label));
    keys.insertBefore(button, typing);
  }
  if (keys.offsetHeight !== height) fitToWindow();
}

function wireTouchKeys() {
  document.body.classList.add("touch");
  const typing = document.getElementById("keyboard");
  // inputmode "none": xterm.js keeps its hidden textarea focused for keys, and a phone
  // would open its soft keyboard over half the board at every tap.
  const typeInto = (on) => {
    const was = term.textarea.getAttribute("inputmode");
    term.textarea.setAttribute("inputmode", on ? "text" : "none");
    typing.setAttribute("aria-pressed", String(on));
    if (was !== null && was !== term.textarea.getAttribute("inputmode")) {
      // A phone reads inputmode as the field gains the focus: focused afresh, the
      // soft keyboard opens, or closes.
      term.textarea.blur();
      term.focus();
    }
  };
  typeInto(false);
  // A tap on the board is play, not typing (a name, a chat line): the soft keyboard
  // goes away and the board shows whole again; the keyboard key brings it back.
  document.getElementById("screen").addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "mouse" && typing.getAttribute("aria-pressed") === "true") {
      typeInto(false);
    }
  });
  // pointerdown, not click: at once, and without taking the focus from the terminal.
  // (On the row, not each button: the row is made again as the screen changes.)
  keys.addEventListener("pointerdown", (event) => {
    const button = event.target.closest("button[data-send]");
    if (!button) return;
    event.preventDefault();
    // A flash of the key, as a real key gives: a tap does not always end in a
    // pointerup the button sees.
    button.classList.add("down");
    setTimeout(() => button.classList.remove("down"), 150);
    send(unescape(button.dataset.send));
  });
  typing.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    typeInto(typing.getAttribute("aria-pressed") !== "true");
  });
}

if (touch) wireTouchKeys();
window.door.touch = touch;
window.addEventListener("resize", fitToWindow);
window.addEventListener("orientationchange", fitToWindow);
fitToWindow();
if (!touch) term.focus();
