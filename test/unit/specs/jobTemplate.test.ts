import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { JOB_TEMPLATES } from '../../../src/core/jobs/templates';
import { jobSpecFromTemplate } from '../../../src/core/specs/jobTemplate';
import { validateSpecText } from '../../../src/core/specs/validate';

describe('New Spec from Template: job templates', () => {
  const templates = JOB_TEMPLATES.filter((template) => template.image !== '');

  it('offers a job template for every Create Job starting point with an image', () => {
    assert.ok(templates.length >= 2);
  });

  for (const template of templates) {
    it(`"${template.id}" is a valid job spec (JSON and YAML), with and without a platform offer`, () => {
      const offers = [undefined, { device: { gpu_name: 'A100', gpu_count: 2 }, region: { region: 'shanghai-p2' } }];
      for (const offer of offers) {
        const spec = jobSpecFromTemplate(template, offer, 'Sandbox');
        for (const [text, format] of [[JSON.stringify(spec, null, 2), 'json'], [stringify(spec), 'yaml']] as const) {
          const result = validateSpecText(text, format);
          assert.deepEqual(result.diagnostics, [], `${template.id} ${format}`);
          assert.equal(result.spec?.kind, 'job');
        }
        assert.equal(spec.services[0]?.image, template.image);
        assert.deepEqual(spec.services[0]?.args, [template.command], 'the command as Create Job runs it');
        if (offer) assert.deepEqual(spec.resource, { gpu: 'A100', gpuCount: 2, region: 'shanghai-p2' });
      }
    });
  }
});
