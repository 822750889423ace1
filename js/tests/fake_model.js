// A stand-in for the anywidget model in the front-end unit tests: the same get/set/on/off/
// send surface, with the messages the view sends recorded and kernel replies injectable.

export function createFakeModel(initial = {}) {
  const state = { ...initial };
  const listeners = new Map();
  const sent = [];
  const model = {
    sent,
    get: (key) => state[key],
    set(key, value) {
      state[key] = value;
      model.emit(`change:${key}`);
    },
    save_changes() {},
    send(content) {
      sent.push(content);
    },
    on(event, fn) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(fn);
    },
    off(event, fn) {
      const set = listeners.get(event);
      if (set) set.delete(fn);
    },
    emit(event, ...args) {
      for (const fn of [...(listeners.get(event) || [])]) fn(...args);
    },
    listenerCount() {
      let n = 0;
      for (const set of listeners.values()) n += set.size;
      return n;
    },
    // What the kernel does: update the render state, then reply with the message's id.
    reply(id, changes = {}, kind = "reply", message = undefined) {
      for (const [key, value] of Object.entries(changes)) model.set(key, value);
      model.emit("msg:custom", kind === "error" ? { kind, id, message } : { kind, id }, []);
    },
  };
  return model;
}
