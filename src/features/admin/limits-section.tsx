// Admins: the spending limits, for the team and for each person, per measure (tasks, images, video
// minutes) per UTC day and month. The server enforces them on every creation (server/limits) and
// records each change in the audit log; an empty field is no limit.
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  LIMIT_MAX,
  LIMIT_MEASURES,
  LIMIT_PERIODS,
  MEASURE_LABELS,
  type LimitMeasure,
  type LimitPeriod,
  type LimitSetting,
} from '@/api/limits';
import { z } from '@/api/zod';
import { Button } from '@/components/ui/core/button';
import { errorTextClass, hintClass, inputClass } from '@/components/ui/styles';
import { readAllLimits, saveLimits, type AllLimits } from './admin-api';
import { AdminSection, SectionError } from './admin-section';

type FieldName = `${LimitMeasure}_${LimitPeriod}`;
const FIELDS = LIMIT_MEASURES.flatMap((measure) =>
  LIMIT_PERIODS.map((period) => ({ measure, period, name: `${measure}_${period}` as FieldName })),
);

const BOUND_MESSAGE = `Enter a whole number from 0 to ${LIMIT_MAX.toLocaleString('en-US')}, or leave it empty for no limit`;
const limitField = z.string().check(
  z.refine((value) => {
    const text = value.trim();
    if (text === '') return true;
    return /^\d{1,7}$/.test(text) && Number(text) <= LIMIT_MAX;
  }, BOUND_MESSAGE),
);
const limitsSchema = z.object(
  Object.fromEntries(FIELDS.map((field) => [field.name, limitField])) as Record<FieldName, typeof limitField>,
);
type LimitsForm = Record<FieldName, string>;

const EMPTY = Object.fromEntries(FIELDS.map((field) => [field.name, ''])) as LimitsForm;
const PERIOD_LABELS: Record<LimitPeriod, string> = { day: 'per day', month: 'per month' };

function toForm(limits: LimitSetting[] | undefined): LimitsForm {
  const values = { ...EMPTY };
  for (const limit of limits ?? []) values[`${limit.measure}_${limit.period}`] = String(limit.max);
  return values;
}

export function LimitsSection({ people }: { people: { id: string; name: string }[] }) {
  const [all, setAll] = useState<AllLimits>();
  const [scope, setScope] = useState('team');
  const [saved, setSaved] = useState('');
  const [error, setError] = useState('');
  const form = useForm<LimitsForm>({
    resolver: zodResolver(limitsSchema),
    defaultValues: EMPTY,
    mode: 'onTouched',
  });
  const { register, handleSubmit, reset, formState } = form;

  useEffect(() => {
    readAllLimits()
      .then(setAll)
      .catch((e: Error) => setError(e.message));
  }, []);
  useEffect(() => {
    if (all) reset(toForm(scope === 'team' ? all.team : all.people[scope]));
  }, [all, scope, reset]);

  const who =
    scope === 'team' ? 'the whole team' : (people.find((p) => p.id === scope)?.name ?? 'this person');

  async function save(values: LimitsForm) {
    setError('');
    setSaved('');
    const limits = FIELDS.map(({ measure, period, name }) => ({
      measure,
      period,
      max: values[name].trim() === '' ? null : Number(values[name].trim()),
    }));
    try {
      await saveLimits(scope === 'team' ? 'team' : { userId: scope }, limits);
      setAll(await readAllLimits());
      setSaved(`Limits of ${who} saved.`);
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <AdminSection
      name="limits"
      title="Spending limits"
      intro={
        <>
          Days and months are in UTC. A person&apos;s limits and the team&apos;s both apply: a creation past
          either is refused. Empty means no limit; 0 allows nothing.
        </>
      }
    >
      <label className="flex max-w-sm flex-col gap-1 text-sm">
        Limits for
        <select
          value={scope}
          onChange={(event) => {
            setSaved('');
            setScope(event.target.value);
          }}
          className={inputClass}
        >
          <option value="team">The whole team</option>
          {people.map((person) => (
            <option key={person.id} value={person.id}>
              {person.name}
            </option>
          ))}
        </select>
      </label>
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(save)(event)}
        aria-label={`Limits of ${who}`}
        className="space-y-4"
      >
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          {LIMIT_MEASURES.map((measure) => (
            <fieldset key={measure} className="space-y-2">
              <legend className="text-sm font-medium">{MEASURE_LABELS[measure]}</legend>
              {LIMIT_PERIODS.map((period) => {
                const name: FieldName = `${measure}_${period}`;
                const message = formState.errors[name]?.message;
                return (
                  <div key={period} className="flex flex-col gap-1">
                    <label htmlFor={`limit-${name}`} className="text-sm">
                      {MEASURE_LABELS[measure]} {PERIOD_LABELS[period]}
                    </label>
                    <input
                      id={`limit-${name}`}
                      inputMode="numeric"
                      autoComplete="off"
                      placeholder="No limit"
                      aria-invalid={message ? true : undefined}
                      aria-describedby={message ? `limit-${name}-error` : undefined}
                      className={inputClass}
                      {...register(name)}
                    />
                    {message && (
                      <p id={`limit-${name}-error`} className={errorTextClass}>
                        {message}
                      </p>
                    )}
                  </div>
                );
              })}
            </fieldset>
          ))}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="primary" pending={formState.isSubmitting} disabled={!all}>
            Save limits
          </Button>
          {saved && (
            <p role="status" className={hintClass}>
              {saved}
            </p>
          )}
          <SectionError message={error} />
        </div>
      </form>
    </AdminSection>
  );
}
