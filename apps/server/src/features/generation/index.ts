export { generationRoutes } from './generation.routes';
export { createBuiltinRenderer, createOpenAiImages, type ImageGenerator, imageGenerationMode } from './image-generator';
