import { Box, Link as MuiLink, Typography } from '@mui/material';
import type { Token, Tokens } from 'marked';
import type { ReactNode } from 'react';
import type { Language } from '../../shared/constants.js';
import { itemTokens, unescaped } from '../../shared/guide-markdown.js';
import { shotUrl } from './guides.js';

/** Inline Markdown (text, bold, italics, code, links) as React elements. */
function Inline({ tokens }: { tokens: Token[] }): ReactNode {
  return tokens.map((t, i) => {
    const key = `${i}-${t.type}`;
    switch (t.type) {
      case 'strong':
        return (
          <strong key={key}>
            <Inline tokens={(t as Tokens.Strong).tokens} />
          </strong>
        );
      case 'em':
        return (
          <em key={key}>
            <Inline tokens={(t as Tokens.Em).tokens} />
          </em>
        );
      case 'codespan':
        return <code key={key}>{(t as Tokens.Codespan).text}</code>;
      case 'link':
        return (
          <MuiLink key={key} href={(t as Tokens.Link).href}>
            <Inline tokens={(t as Tokens.Link).tokens} />
          </MuiLink>
        );
      case 'br':
        return <br key={key} />;
      case 'image':
        return null;
      default:
        return 'tokens' in t && t.tokens ? (
          <Inline key={key} tokens={t.tokens} />
        ) : (
          <span key={key}>{unescaped((t as Tokens.Text).text ?? t.raw)}</span>
        );
    }
  });
}

/** The screenshots among a paragraph's tokens, each with its caption. */
function Shots({ tokens, language }: { tokens: Token[]; language: Language }) {
  return tokens
    .filter((t): t is Tokens.Image => t.type === 'image')
    .map((image) => {
      const name = /^shot:([a-z0-9-]+)$/.exec(image.href)?.[1];
      const src = name ? shotUrl(name, language) : undefined;
      return src ? (
        <Box component="figure" key={image.href} sx={{ m: 0, my: 1.5 }} data-shot={name}>
          <Box
            component="img"
            src={src}
            alt={image.text}
            sx={{ maxWidth: '100%', height: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
          />
          <Typography component="figcaption" variant="caption" color="text.secondary">
            {image.text}
          </Typography>
        </Box>
      ) : null;
    });
}

/** Each token with a key of its own: its text, numbered when the same text comes again. */
export function keyed<T extends { raw: string }>(tokens: readonly T[]): Array<[string, T]> {
  const seen = new Map<string, number>();
  return tokens.map((t) => {
    const n = seen.get(t.raw) ?? 0;
    seen.set(t.raw, n + 1);
    return [`${t.raw}#${n}`, t];
  });
}

const words = (tokens: Token[]) => tokens.filter((t) => t.type !== 'image');
const hasWords = (tokens: Token[]) => words(tokens).some((t) => t.raw.trim());

/** A block of a guide: paragraph, list, note; screenshots after the words they illustrate. */
export function Block({ token, language }: { token: Token; language: Language }) {
  switch (token.type) {
    case 'paragraph': {
      const tokens = (token as Tokens.Paragraph).tokens;
      return (
        <>
          {hasWords(tokens) && (
            <Typography sx={{ my: 1 }}>
              <Inline tokens={words(tokens)} />
            </Typography>
          )}
          <Shots tokens={tokens} language={language} />
        </>
      );
    }
    case 'list': {
      const list = token as Tokens.List;
      return (
        <Box
          component={list.ordered ? 'ol' : 'ul'}
          sx={{ pl: 3, my: 1 }}
          start={list.ordered ? Number(list.start || 1) : undefined}
        >
          {keyed(list.items).map(([key, item]) => {
            const tokens = itemTokens(item);
            return (
              <Box component="li" key={key} sx={{ mb: 0.5 }}>
                <Typography component="span">
                  <Inline tokens={words(tokens.filter((t) => t.type !== 'list'))} />
                </Typography>
                <Shots tokens={tokens} language={language} />
              </Box>
            );
          })}
        </Box>
      );
    }
    case 'blockquote':
      return (
        <Box sx={{ borderLeft: 4, borderColor: 'primary.main', pl: 2, my: 1.5, color: 'text.secondary' }}>
          {keyed((token as Tokens.Blockquote).tokens).map(([key, t]) => (
            <Block key={key} token={t} language={language} />
          ))}
        </Box>
      );
    default:
      return null;
  }
}
