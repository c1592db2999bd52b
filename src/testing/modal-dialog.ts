// jsdom has <dialog> but not its modal methods: showModal() and close() as the browser has them
// (close fires `close`), and, when asked, Escape closing the open modal dialog as the browser does.
export function emulateModalDialogs({ escapeCloses = false } = {}) {
  const proto = HTMLDialogElement.prototype;
  proto.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
  if (escapeCloses)
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') document.querySelector<HTMLDialogElement>('dialog[open]')?.close();
    });
}
