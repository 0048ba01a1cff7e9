import {
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { TestSheet } from './api.js';

const OPTIONS = ['A', 'B', 'C', 'D'] as const;

export type Answers = Array<{ IdPregunta: number; Respuesta: string }>;

/** The test's questions, each with its four options (A–D) to choose one from; sent once all are answered. */
export function TestQuestions({
  questions,
  disabled,
  onSubmit,
}: {
  questions: TestSheet['preguntas'];
  disabled: boolean;
  onSubmit(answers: Answers): void;
}) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`induction.screens.test.${key}`, options);
  const [answers, setAnswers] = useState<Record<number, string>>({});
  const answered = questions.filter((q) => answers[q.IdPregunta]).length;
  return (
    <Stack
      component="form"
      spacing={3}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(questions.map((q) => ({ IdPregunta: q.IdPregunta, Respuesta: answers[q.IdPregunta] })));
      }}
    >
      {questions.map((q, index) => (
        <FormControl key={q.IdPregunta} disabled={disabled} data-question={index + 1}>
          <FormLabel
            id={`question-${q.IdPregunta}`}
            sx={{ color: 'text.primary', '&.Mui-focused': { color: 'text.primary' } }}
          >
            <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {text('question', { n: index + 1, total: questions.length })}
            </Typography>
            {q.Pregunta}
          </FormLabel>
          <RadioGroup
            aria-labelledby={`question-${q.IdPregunta}`}
            value={answers[q.IdPregunta] ?? ''}
            onChange={(event) => setAnswers((before) => ({ ...before, [q.IdPregunta]: event.target.value }))}
          >
            {OPTIONS.map((option) => (
              <FormControlLabel
                key={option}
                value={option}
                control={<Radio />}
                label={`${option}. ${q[`Opcion${option}`]}`}
                data-option={option}
                sx={{
                  alignItems: 'flex-start',
                  '& .MuiRadio-root': { pt: 0.5 },
                  '& .MuiFormControlLabel-label': { pt: 0.75 },
                }}
              />
            ))}
          </RadioGroup>
        </FormControl>
      ))}
      <Stack direction="row" spacing={2} alignItems="center" useFlexGap flexWrap="wrap">
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={disabled || answered < questions.length}
          data-testid="submit-test"
        >
          {text('submit')}
        </Button>
        <Typography variant="body2" color="text.secondary" data-testid="answered">
          {text('answered', { answered, total: questions.length })}
        </Typography>
      </Stack>
    </Stack>
  );
}
