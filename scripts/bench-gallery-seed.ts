// Runs inside the page (Playwright serializes it): writes `count` task records straight into the
// history's IndexedDB store, the same layout idb-keyval uses (database media-console, store tasks,
// key = task id). Kinds, statuses and media are mixed like a real history; all tasks are finished
// so the benchmark measures the gallery, not the poller.
export async function seedHistoryInPage({ count, origin }: { count: number; origin: string }): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('media-console');
    request.onupgradeneeded = () => request.result.createObjectStore('tasks');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const kinds = ['image_to_video', 'image_generate', 'video_translate'] as const;
  const languages = ['English', 'Japanese', 'Korean', 'Chinese', 'Spanish'];
  const now = Date.now();
  const tx = db.transaction('tasks', 'readwrite');
  const store = tx.objectStore('tasks');
  for (let i = 0; i < count; i++) {
    const kind = kinds[i % 3]!;
    const failed = i % 11 === 0;
    const id = `${kind === 'image_generate' ? 'i2is' : kind === 'image_to_video' ? 'i2v' : 'vt'}-bench-${String(i).padStart(5, '0')}`;
    const createdAt = now - (count - i) * 60_000;
    const result: Record<string, unknown> = {
      task_id: id,
      status: failed ? 'FAILED' : 'SUCCEEDED',
      error_message: failed ? `Emulated failure #${i}: the model could not process this request` : '',
    };
    if (!failed) {
      if (kind === 'image_generate')
        Object.assign(result, {
          image_url: `${origin}/emulator/samples/reference.webp`,
          thumbnail_url: `${origin}/emulator/samples/reference.webp`,
        });
      else
        Object.assign(result, {
          video_url: `${origin}/emulator/samples/video.mp4`,
          thumbnail_url: `${origin}/emulator/samples/reference.jpg`,
        });
      if (kind === 'image_to_video') Object.assign(result, { duration: 4, width: 720, height: 1280 });
      if (kind === 'video_translate')
        Object.assign(result, { name: `${languages[i % 5]}-Product tour ${i}`, language: languages[i % 5] });
    }
    store.put(
      {
        id,
        kind,
        source: 'created',
        params:
          kind === 'video_translate'
            ? {
                video_url: `${origin}/emulator/samples/video.mp4`,
                target_languages: [languages[i % 5]],
                name: `Product tour ${i}`,
              }
            : { prompt: `Bench prompt number ${i}: a lighthouse at dusk, slow push-in` },
        language: kind === 'video_translate' ? languages[i % 5] : undefined,
        createdAt,
        updatedAt: createdAt + 30_000,
        finishedAt: createdAt + 30_000,
        lastCheckedAt: createdAt + 30_000,
        status: result.status,
        result,
      },
      id,
    );
  }
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}
