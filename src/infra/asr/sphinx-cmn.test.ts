import { readFile, rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../audio/run-command.js';
import { argsWith } from './sphinx-engine.js';
import { cmnProbeArgs, featParamsWithCmn, parseCmnUpdate, prepareCmnProbe, writeFeatParams } from './sphinx-cmn.js';

const MODEL_FEAT = '-lowerf 130\n-upperf 6800\n-cmn batch\n-cmninit 41.00,-5.29,-0.12\n-model ptm\n';

describe('the file\'s own cepstral mean for sphinx', () => {
  it('reads the mean from sphinx\'s CMN update lines, and nothing else', () => {
    expect(parseCmnUpdate('INFO: cmn_live.c(138): Update to   < 53.37  7.17 -8.63 23.77 >')).toEqual([53.37, 7.17, -8.63, 23.77]);
    expect(parseCmnUpdate('INFO: cmn_live.c(120): Update from < 41.00 -5.29 -0.12 >')).toBeNull();
    expect(parseCmnUpdate('INFO: cmn_live.c(138): Update to   < nan 1 >')).toBeNull();
    expect(parseCmnUpdate('he was not an illness those young man')).toBeNull();
  });

  it('replaces the model\'s -cmninit and keeps every other parameter', () => {
    const text = featParamsWithCmn(MODEL_FEAT, [53.371, 7.17, -8.6]);
    expect(text).toBe('-lowerf 130\n-upperf 6800\n-cmn batch\n-cmninit 53.37,7.17,-8.60\n-model ptm\n');
    expect(featParamsWithCmn('-cmn batch', [1, 2])).toBe('-cmn batch\n-cmninit 1.00,2.00\n');
  });

  it('writes the probe\'s one-word model once and a feat.params per decode', async () => {
    const probe = await prepareCmnProbe();
    expect(await readFile(probe.dictFile, 'utf8')).toBe('hello HH AH L OW\n');
    expect(await readFile(probe.lmFile, 'utf8')).toContain('-0.5 hello');
    expect(cmnProbeArgs(probe).slice(0, 4)).toEqual(['-lm', probe.lmFile, '-dict', probe.dictFile]);
    const [a, b] = await Promise.all([writeFeatParams(MODEL_FEAT, [1, 2]), writeFeatParams(MODEL_FEAT, [3, 4])]);
    expect(a).not.toBe(b);
    expect(await readFile(b, 'utf8')).toContain('-cmninit 3.00,4.00\n');
    await Promise.all([rm(a), rm(b)]);
  });

  it('reads the same mean from its cheap search as from one that scores every frame', async () => {
    const probe = await prepareCmnProbe();
    const hmm = '/usr/share/pocketsphinx/model/en-us/en-us';
    const clip = '/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0920.wav';
    const mean = async (args: string[]) => {
      const run = await runCommand('pocketsphinx_continuous', ['-infile', clip, '-hmm', hmm, ...args], { timeoutMs: 60_000 });
      expect(run.exitCode).toBe(0);
      return run.stderrTail.split('\n').map(parseCmnUpdate).filter((m) => m !== null).at(-1);
    };
    const full = await mean(argsWith(cmnProbeArgs(probe), ['-ds', '1', '-topn', '4', '-maxhmmpf', '30000']));
    expect(full).toHaveLength(13);
    expect(await mean(cmnProbeArgs(probe))).toEqual(full);
  });
});
