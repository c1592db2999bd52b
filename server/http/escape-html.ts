// For text the server writes into HTML it builds itself (the sign-in page, the screens' preload
// links): safe in element content and in quoted attribute values.
export const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );
