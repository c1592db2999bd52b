import type { ApiError } from '@/api/errors';
import { fieldForServerError, serverFieldMessage } from '@/forms/form-errors';
import { toVideoRequest, VIDEO_FORM_FIELDS } from './video-form-model';

/** Which request field a 530002 concerns: the one holding the URL its msg names. */
function fieldOfUrl(msg: string, body: ReturnType<typeof toVideoRequest>) {
  if (body.image_url && msg.includes(body.image_url)) return 'image_url' as const;
  if (body.end_image_url && msg.includes(body.end_image_url)) return 'end_image_url' as const;
  return body.reference_images ? ('reference_images' as const) : ('image_url' as const);
}

/**
 * Where a refusal belongs: 100001/100002 (and the endpoint's own 100004–100007) on the field they
 * name; 530002 on its image. Undefined when no field of the form is named (the banner shows it).
 * Async for the endpoint's own codes: their message parser loads with the failure, not the form.
 */
export async function videoErrorPlace(
  error: ApiError,
  body: ReturnType<typeof toVideoRequest>,
): Promise<{ field: Exclude<(typeof VIDEO_FORM_FIELDS)[number], 'model'>; message: string } | undefined> {
  const ownCode = error.kind === 'business' && (error.code ?? 0) >= 100004 && (error.code ?? 0) <= 100007;
  const field =
    error.kind === 'reference_image'
      ? fieldOfUrl(error.msg, body)
      : (fieldForServerError(error, VIDEO_FORM_FIELDS) ??
        (ownCode
          ? ((await import('@/api/error-fields')).fieldFromMessage(
              error.msg,
              VIDEO_FORM_FIELDS,
            ) as (typeof VIDEO_FORM_FIELDS)[number])
          : undefined));
  if (!field || field === 'model') return undefined;
  const message =
    error.kind === 'reference_image' || ownCode
      ? `${error.explanation} (Code ${error.code}: “${error.msg}”)`
      : serverFieldMessage(error);
  return { field, message };
}
