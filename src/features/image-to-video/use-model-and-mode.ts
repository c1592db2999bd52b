import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { switchVideoForm, type VideoFormValues } from './video-form-model';
import type { VideoFormOutput } from './schema/video-form-schema';

/** Model and mode: each follows the other, and the one-line `change` says what else moved. */
export function useModelAndMode(form: UseFormReturn<VideoFormValues, unknown, VideoFormOutput>) {
  const [change, setChange] = useState('');
  const apply = (choice: Parameters<typeof switchVideoForm>[1]) => {
    const before = form.getValues();
    const { values, change } = switchVideoForm(before, choice);
    for (const key of Object.keys(values) as (keyof VideoFormValues)[]) {
      if (values[key] !== before[key]) form.setValue(key, values[key], { shouldDirty: true });
    }
    form.clearErrors();
    setChange(change);
  };
  return { change, apply, clear: () => setChange('') };
}
