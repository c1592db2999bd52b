import { useEffect, useRef, useState } from 'react';
import type { FieldValues, Path, PathValue, UseFormSetValue } from 'react-hook-form';
import { dropHighlight, useFileDrop } from '@/forms/uploads/file-controls';
import type { UploadAccept } from '@/forms/uploads/upload-accept';
import { useUploads } from '@/forms/uploads/upload-context';
import { useUploadsUnavailable } from '@/forms/uploads/uploads-availability';

interface ListFilesOptions<T extends FieldValues> {
  /** The rows of useFieldArray: their ids name the upload slots. */
  fields: readonly { id: string }[];
  urls: readonly { url?: string }[] | undefined;
  max: number;
  name: string;
  setValue: UseFormSetValue<T> | undefined;
  accept: UploadAccept;
  append: (rows: { url: string }[], options: { shouldFocus: boolean }) => void;
  /** "reference images", for the note about files that did not fit. */
  noun: string;
}

/**
 * Files for a list of image rows: dropped, pasted or picked files fill the row they were dropped on,
 * then empty rows, then new rows up to the list's limit; the rest are named as left out. A new row
 * has its id only after the next render, so files for new rows wait in a queue until then.
 */
export function useListFiles<T extends FieldValues>(options: ListFilesOptions<T>) {
  const { fields, urls, max, name, setValue, accept, append, noun } = options;
  const tracker = useUploads();
  const unavailable = useUploadsUnavailable();
  const [leftOut, setLeftOut] = useState<string>();
  // Files the browser's check refused before any row was given to them: said beside the control.
  const [refusals, setRefusals] = useState<string[]>([]);
  const fieldsRef = useRef(fields);
  const queued = useRef<File[]>([]);

  const isFree = (index: number) =>
    !urls?.[index]?.url?.trim() && !tracker?.jobs().some((job) => job.slot === fields[index]?.id);

  const startRow = (slot: string, file: File) =>
    tracker?.start(slot, file, accept, (url) => {
      // Rows may have been removed or reordered meanwhile: the URL goes to the row, wherever it is.
      const index = fieldsRef.current.findIndex((field) => field.id === slot);
      if (index >= 0)
        setValue?.(`${name}.${index}.url` as Path<T>, url as PathValue<T, Path<T>>, {
          shouldDirty: true,
          shouldValidate: true,
        });
    });

  useEffect(() => {
    fieldsRef.current = fields;
    if (queued.current.length === 0) return;
    fields.forEach((field, index) => {
      const file = queued.current[0];
      if (file && isFree(index)) {
        queued.current.shift();
        startRow(field.id, file);
      }
    });
    // Runs for new rows only: the helpers read the latest values through the closure.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fields]);

  function place(files: File[], startIndex?: number) {
    const targets = startIndex === undefined ? [] : [startIndex];
    fields.forEach((_, index) => {
      if (index !== startIndex && isFree(index)) targets.push(index);
    });
    const room = targets.length + Math.max(0, max - fields.length);
    const taken = files.slice(0, room);
    const rest = files.slice(room);
    taken.slice(0, targets.length).forEach((file, k) => startRow(fields[targets[k]!]!.id, file));
    const extra = taken.slice(targets.length);
    if (extra.length > 0) {
      queued.current.push(...extra);
      append(
        extra.map(() => ({ url: '' })),
        { shouldFocus: false },
      );
    }
    setLeftOut(
      rest.length > 0
        ? `Left out: ${rest.map((file) => file.name).join(', ')} (at most ${max} ${noun}).`
        : undefined,
    );
  }

  /**
   * Files given to the list (picked, dropped, pasted): each is checked first, so a refused file
   * (a text file named .png, one too large) takes no row; its reason is shown beside the control.
   * A file given to one row keeps its refusal on that row (the row was there before).
   */
  async function onFiles(files: File[], startIndex?: number) {
    if (startIndex !== undefined) {
      place(files, startIndex);
      return;
    }
    const { refusalOf } = await import('@/forms/uploads/upload-refusal');
    const checked = await Promise.all(
      files.map(async (file) => ({ file, refusal: await refusalOf(file, accept) })),
    );
    setRefusals(checked.flatMap(({ refusal }) => (refusal ? [refusal] : [])));
    const accepted = checked.filter(({ refusal }) => !refusal).map(({ file }) => file);
    if (accepted.length > 0) place(accepted);
  }

  const enabled = Boolean(tracker && setValue) && !unavailable;
  const drop = useFileDrop(enabled ? (files) => void onFiles(files) : undefined);
  if (!enabled) return undefined;
  return {
    onFiles: (files: File[], startIndex?: number) => void onFiles(files, startIndex),
    leftOut,
    refusals,
    dismissRefusals: () => setRefusals([]),
    dropProps: drop.props,
    highlight: dropHighlight(drop.dragging),
  };
}
