import { useFormState, useWatch, type Control } from 'react-hook-form';
import { BOUNDS } from '@/api/core/rules';
import { FormSummary, rangeProblem } from '@/forms/form-summary';
import type { VideoFormInput } from './video-form-model';

const yesNo = (value: boolean | undefined) => (value ? 'Yes' : 'No');

/** What one submission will create, in the words of the form. */
export function VideoSummary({ control }: { control: Control<VideoFormInput, unknown, unknown> }) {
  const [languages, speakers, audioOnly, dynamic, captions] = useWatch({
    control,
    name: [
      'target_languages',
      'speaker_num',
      'translate_audio_only',
      'enable_dynamic_duration',
      'enable_caption',
    ],
  });
  const count = languages?.length ?? 0;
  const { errors } = useFormState({ control, name: 'speaker_num' });
  const speakersProblem =
    errors.speaker_num?.message ?? rangeProblem(speakers, BOUNDS.speakerNum, 'Number of speakers');
  return (
    <FormSummary
      lead={
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          {count === 0
            ? 'Choose at least one language: each becomes its own translation task.'
            : `${count} translation ${count === 1 ? 'task' : 'tasks'}, one per language.`}
        </p>
      }
      rows={[
        {
          term: 'Speakers',
          value: speakers === 0 ? 'Detected by the service' : Number.isInteger(speakers) ? speakers : '—',
          problem: speakersProblem,
        },
        { term: 'Audio only', value: yesNo(audioOnly) },
        { term: 'Dynamic duration', value: yesNo(dynamic) },
        { term: 'Captions (.ass)', value: yesNo(captions) },
      ]}
      note="Translations can take up to two hours. Results are kept by the service for about 7 days."
    />
  );
}
