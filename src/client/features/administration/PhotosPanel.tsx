import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import DeleteIcon from '@mui/icons-material/Delete';
import ImageIcon from '@mui/icons-material/Image';
import { Box, Button, IconButton, Stack, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { Confirm, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { PHOTO, TOAST_MS } from '../../../shared/constants.js';
import { photoRanges } from '../../../shared/photo.js';
import { lockedByState } from '../../../shared/rules.js';
import { useResourceMeta } from '../../providers/meta.js';
import { chosenPhotoProblem, usePhotoLimits } from '../../resources/form/widgets/ImageWidget.js';
import { type Photo, type PhotoOwner, photosApi } from './api.js';

const MAX_PHOTOS = PHOTO.maxPerRecord;

/** A group of photos on the screen: of one kind (the mobile photo, one at most) or all the vehicle's. */
interface Group {
  name: 'mobile' | 'extra' | 'vehicle';
  kind?: 'M' | 'E';
  single?: boolean;
}

/** A person's mobile photo and extra photos, below the person's fields. */
export function PersonPhotos() {
  return (
    <PhotosPanel
      owner="person"
      groups={[
        { name: 'mobile', kind: 'M', single: true },
        { name: 'extra', kind: 'E' },
      ]}
    />
  );
}

/** A vehicle's photos, below the vehicle's fields. */
export function VehiclePhotos() {
  return <PhotosPanel owner="vehicle" groups={[{ name: 'vehicle' }]} />;
}

/**
 * The record's photos besides its own fields, each group with its photos and, for whoever may
 * change the record (not a ceased person), a button to add one and one to remove each. A file that
 * is not a .png, .jpg or .jpeg image, is larger than the client allows or whose dimensions stray
 * from the suggested size is refused before it is sent, with a three-second message saying why
 * (spec section 5); the server checks the same and its refusal is shown as it says it.
 */
function PhotosPanel({ owner, groups }: { owner: PhotoOwner; groups: Group[] }) {
  const record = useRecordContext();
  const meta = useResourceMeta();
  const translate = useTranslate();
  const id = record?.id === undefined ? undefined : Number(record.id);
  const api = photosApi(owner);
  const { data: photos = [] } = useQuery({
    queryKey: ['photos', owner, id],
    enabled: id !== undefined,
    queryFn: () => api.list(id as number),
  });
  if (id === undefined) return null;
  const locked = lockedByState(meta.schema['x-lockedWhen'], record, ['Foto']).length > 0;
  const canWrite = meta.access === 'write' && !locked;
  return (
    <Box component="section" aria-labelledby={`photos-${owner}`} sx={{ mx: 2, my: 2 }} data-testid="photos">
      <Typography
        id={`photos-${owner}`}
        variant="h6"
        component="h2"
        sx={{ fontSize: '1.05rem', pb: 0.5, mb: 1, borderBottom: 1, borderColor: 'divider' }}
      >
        {translate('photos.title')}
      </Typography>
      {groups.map((group) => (
        <PhotoGroup
          key={group.name}
          owner={owner}
          ownerId={id}
          group={group}
          photos={photos.filter((p) => !group.kind || p.Tipo === group.kind)}
          canWrite={canWrite}
        />
      ))}
    </Box>
  );
}

function PhotoGroup({
  owner,
  ownerId,
  group,
  photos,
  canWrite,
}: {
  owner: PhotoOwner;
  ownerId: number;
  group: Group;
  photos: Photo[];
  canWrite: boolean;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const limits = usePhotoLimits();
  const input = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const hintId = useId();
  const [busy, setBusy] = useState(false);
  const api = photosApi(owner);
  const full = !group.single && photos.length >= MAX_PHOTOS;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['photos', owner, ownerId] });
  const refuse = (messageKey: string, params: object) =>
    notify(messageKey, { type: 'error', messageArgs: params, autoHideDuration: TOAST_MS.wizard });

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared either way: choosing the same file again is a new choice.
    event.target.value = '';
    if (!file) return;
    const problem = await chosenPhotoProblem(file, limits);
    if (problem) return refuse(problem.messageKey, problem.params);
    setBusy(true);
    try {
      await api.add(ownerId, file, group.kind);
      notify('photos.added', { type: 'success', messageArgs: { name: file.name } });
      await refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error', autoHideDuration: TOAST_MS.wizard });
    } finally {
      setBusy(false);
    }
  };

  const addLabel = group.single && photos.length ? 'photos.replace' : 'photos.add';
  return (
    <Box component="section" aria-labelledby={titleId} sx={{ mb: 2 }}>
      <Typography id={titleId} variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {translate(`photos.groups.${group.name}`)}
      </Typography>
      <Stack direction="row" useFlexGap spacing={1.5} sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
        {photos.map((photo) => (
          <PhotoTile key={photo.id} owner={owner} photo={photo} canWrite={canWrite} onRemoved={refresh} />
        ))}
        {!photos.length && (
          <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
            {translate('photos.none')}
          </Typography>
        )}
      </Stack>
      {canWrite && (
        <Box sx={{ mt: 1 }}>
          <Button
            variant="outlined"
            size="small"
            startIcon={<AddPhotoAlternateIcon />}
            disabled={busy || full}
            onClick={() => input.current?.click()}
            aria-describedby={hintId}
          >
            {translate(addLabel, { group: translate(`photos.groups.${group.name}`) })}
          </Button>
          <input
            ref={input}
            type="file"
            hidden
            accept={[...PHOTO.extensions, 'image/png', 'image/jpeg'].join(',')}
            onChange={choose}
            data-testid={`photo-file-${group.name}`}
          />
          <Typography id={hintId} variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
            {full
              ? translate('photos.full', { max: MAX_PHOTOS })
              : translate('app.image.hint', {
                  width: limits.width,
                  height: limits.height,
                  kb: limits.maxKilobytes,
                  ...photoRanges(limits),
                })}
          </Typography>
        </Box>
      )}
    </Box>
  );
}

function PhotoTile({
  owner,
  photo,
  canWrite,
  onRemoved,
}: {
  owner: PhotoOwner;
  photo: Photo;
  canWrite: boolean;
  onRemoved: () => Promise<unknown>;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [url, setUrl] = useState<string>();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let made: string | undefined;
    let gone = false;
    photosApi(owner)
      .image(photo.id)
      .then((u) => {
        if (gone) return URL.revokeObjectURL(u);
        made = u;
        setUrl(u);
      })
      .catch(() => undefined);
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [owner, photo.id]);

  const remove = async () => {
    setBusy(true);
    try {
      await photosApi(owner).remove(photo.id);
      setAsking(false);
      notify('photos.removed', { type: 'success', messageArgs: { name: photo.NombreArchivo } });
      await onRemoved();
    } catch (error) {
      notify((error as Error).message, { type: 'error', autoHideDuration: TOAST_MS.wizard });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box
      component="figure"
      data-testid="photo-tile"
      sx={{ m: 0, width: 132, border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}
    >
      <Box
        sx={{
          height: 120,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          bgcolor: 'grey.100',
        }}
      >
        {url ? (
          <Box
            component="img"
            src={url}
            alt={photo.NombreArchivo}
            sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
          />
        ) : (
          <ImageIcon sx={{ fontSize: 40, color: 'grey.500' }} />
        )}
      </Box>
      <Stack direction="row" alignItems="center" sx={{ px: 1, py: 0.5 }}>
        <Typography
          component="figcaption"
          variant="caption"
          noWrap
          title={photo.NombreArchivo}
          sx={{ flex: 1, minWidth: 0 }}
        >
          {photo.NombreArchivo}
        </Typography>
        {canWrite && (
          <IconButton
            size="small"
            color="error"
            aria-label={translate('photos.remove', { name: photo.NombreArchivo })}
            onClick={() => setAsking(true)}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        )}
      </Stack>
      <Confirm
        isOpen={asking}
        loading={busy}
        title={translate('photos.removeTitle')}
        content={translate('photos.removeAsk', { name: photo.NombreArchivo })}
        onConfirm={remove}
        onClose={() => setAsking(false)}
      />
    </Box>
  );
}
