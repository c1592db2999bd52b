import { useFormState, useWatch, type Control } from 'react-hook-form';
import { BOUNDS } from '@/api/rules';
import { cardClass } from '@/components/ui/styles';
import { rangeProblem, SummaryRow } from '@/forms/summary-row';
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
    <section aria-labelledby="video-summary-title" className={`${cardClass} p-4`}>
      <h2 id="video-summary-title" className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        What you will get
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {count === 0
          ? 'Choose at least one language: each becomes its own translation task.'
          : `${count} translation ${count === 1 ? 'task' : 'tasks'}, one per language.`}
      </p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <SummaryRow term="Speakers" problem={speakersProblem}>
          {speakers === 0 ? 'Detected by the service' : Number.isInteger(speakers) ? speakers : '—'}
        </SummaryRow>
        <dt className="text-zinc-600 dark:text-zinc-400">Audio only</dt>
        <dd className="text-right font-medium">{yesNo(audioOnly)}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Dynamic duration</dt>
        <dd className="text-right font-medium">{yesNo(dynamic)}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Captions (.ass)</dt>
        <dd className="text-right font-medium">{yesNo(captions)}</dd>
      </dl>
      <p className="mt-3 border-t border-zinc-200 pt-3 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
        Translations can take up to two hours. Results are kept by the service for about 7 days.
      </p>
    </section>
  );
}
