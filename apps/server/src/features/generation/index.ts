export { generationRoutes } from './generation.routes';
export { createBuiltinRenderer, createOpenAiImages, type ImageGenerator } from './image-generator';
